/**
 * The server's command line refuses what it cannot run with in one line of its own words (exit 2),
 * never a stack trace: a bad option, a configuration of the wrong shape, one whose values
 * contradict each other, a Redis it cannot reach, and a data directory another process holds or
 * that cannot be made. (A database that refuses the server: test/postgres.test.ts.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, sandboxConfigFile } from '../src/config/config.js';
import { checkWorkers } from '../src/workers.js';
import { runServerCommand as run } from './fixtures/command-line.js';

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

  it('refuses a data directory another process holds, or one it cannot make, in one line, exit 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-data-'));
    // This test's process runs, and is not the server's: its pid is a live owner of the lock.
    writeFileSync(join(dataDir, 'gateway.pid'), String(process.pid));
    const held = await run(['--port', '0', '--data-dir', dataDir]);
    expect(held.code, held.stderr).toBe(2);
    expect(held.stderr.trim()).toBe(
      `[gateway] the data directory ${dataDir} is in use by process ${process.pid}; stop it first, or use DATABASE_URL for several processes`,
    );
    // A directory under a file cannot be made, whoever runs the test (root included).
    const underFile = join(dataDir, 'gateway.pid', 'data');
    const unmade = await run(['--port', '0', '--data-dir', underFile]);
    expect(unmade.code, unmade.stderr).toBe(2);
    expect(unmade.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^\[gateway\] the data directory .+ cannot be made: ENOTDIR: not a directory/),
    ]);
    expect(unmade.stderr).toContain(underFile);
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
