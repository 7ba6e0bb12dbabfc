/**
 * The server's command line refuses what it cannot run with in one line of its own words (exit 2),
 * never a stack trace: a bad option, a configuration of the wrong shape, one whose values
 * contradict each other, and a Redis it cannot reach.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig, sandboxConfigFile } from '../src/config/config.js';
import { checkWorkers } from '../src/workers.js';
import { shortLivedNodeFlags } from './fixtures/node-flags.js';

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stderr: string }> {
  try {
    // The build (the test task depends on it) starts in a fraction of tsx's time.
    await promisify(execFile)(process.execPath, [...shortLivedNodeFlags, 'dist/main.js', ...args], {
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('the command line', () => {
  it('names a configuration it cannot run with in one line, exit 2', async () => {
    const config = JSON.parse(readFileSync(sandboxConfigFile, 'utf8'));
    const file = join(mkdtempSync(join(tmpdir(), 'gateway-config-')), 'config.json');
    writeFileSync(file, JSON.stringify({ ...config, rateLimits: { ...config.rateLimits, anonymous: config.rateLimits.apiKey } }));
    for (const workers of ['1', '2']) {
      const answer = await run(['--config', file, '--port', '0', '--workers', workers], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
      expect(answer.code, answer.stderr).toBe(2);
      expect(answer.stderr.trim().split('\n')).toEqual([
        '[gateway] invalid configuration:',
        '- rateLimits.anonymous must be below rateLimits.apiKey',
      ]);
    }
  });

  it('names each setting misspelt, missing or of the wrong type, exit 2', async () => {
    const { chains: _left, ...config } = JSON.parse(readFileSync(sandboxConfigFile, 'utf8'));
    const file = join(mkdtempSync(join(tmpdir(), 'gateway-config-')), 'config.json');
    writeFileSync(file, JSON.stringify({ ...config, lifecycle: { ...config.lifecycle, tickMS: 500 }, quoteTtlSeconds: '600' }));
    const answer = await run(['--config', file, '--port', '0']);
    expect(answer.code, answer.stderr).toBe(2);
    const [heading, ...problems] = answer.stderr.trim().split('\n');
    expect(heading).toMatch(/^\[gateway\] invalid configuration \(its settings: .*gateway-config\.schema\.json; .*sandbox\.json\):$/);
    expect(problems.sort()).toEqual(['- chains is missing', '- lifecycle.tickMS is not a setting', '- quoteTtlSeconds must be integer']);
  });

  it('refuses a Redis it cannot reach in one line, exit 2', async () => {
    // Port 1 of this machine: nothing listens there, so the connection is refused at once.
    const answer = await run(['--port', '0', '--data-dir', ':memory:'], { GATEWAY_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(answer.code, answer.stderr).toBe(2);
    expect(answer.stderr.trim()).toMatch(/^\[gateway\] the rate-limit store at redis:\/\/127\.0\.0\.1:1 is unreachable: [^\n]+$/);
  });

  it('refuses several workers on the embedded store in one line, exit 2', async () => {
    const answer = await run(['--workers', '2', '--port', '0', '--data-dir', ':memory:']);
    expect(answer.code).toBe(2);
    expect(answer.stderr.trim()).toBe(
      '[gateway] several workers need PostgreSQL (DATABASE_URL): the embedded store belongs to one process',
    );
  });
});

describe('the warnings at start', () => {
  it('say on PostgreSQL without Redis that rate limits are counted per process, one process or several', () => {
    const database = { DATABASE_URL: 'postgres://127.0.0.1:1/none' };
    expect(checkWorkers(1, loadConfig({ env: {} }))).toEqual([]);
    expect(checkWorkers(1, loadConfig({ env: database }))).toEqual([expect.stringMatching(/counted by this process alone/)]);
    expect(checkWorkers(2, loadConfig({ env: database }))).toEqual([expect.stringMatching(/counted per worker/)]);
    expect(checkWorkers(2, loadConfig({ env: { ...database, GATEWAY_REDIS_URL: 'redis://127.0.0.1:1' } }))).toEqual([]);
  });
});
