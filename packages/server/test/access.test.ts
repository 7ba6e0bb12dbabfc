/** API keys issued by the operator command, and rate limits lower without a key than with one. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { client, testServer } from './helpers.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-keys-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('API keys', () => {
  it('issues a 32-character key with keys:issue, stores only its hash, and accepts it after a restart', async () => {
    const { stdout } = await run('pnpm', ['exec', 'tsx', 'src/keys/issue-cli.ts', '--label', 'acme', '--data-dir', dataDir], { cwd: join(import.meta.dirname, '..') });
    const key = stdout.trim();
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);

    const server = await testServer({ dataDir, config: { rateLimits: { windowSeconds: 60, anonymous: 3, apiKey: 6 } } });
    try {
      const stored = await server.services.db.query<Record<string, string>>('SELECT * FROM api_keys');
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(key);
      expect(stored[0]!.label).toBe('acme');

      const withKey = client(server.url, { authorization: `Bearer ${key}` });
      const anonymous = client(server.url);
      for (let i = 0; i < 6; i++) expect((await withKey.get('/v4/get-routes')).status).toBe(200);
      const keyLimited = await withKey.get('/v4/get-routes');
      expect(keyLimited).toMatchObject({ status: 429, body: { code: 'EXCEEDED_LIMIT', details: { limit: '6' } } });

      for (let i = 0; i < 3; i++) expect((await anonymous.get('/v4/get-routes')).status).toBe(200);
      const limited = await anonymous.get('/v4/get-routes');
      expect(limited).toMatchObject({ status: 429, body: { code: 'EXCEEDED_LIMIT', details: { limit: '3' } } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // The health check is not rate limited.
      expect((await anonymous.get('/health')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a malformed or unknown key with 401', async () => {
    const server = await testServer();
    try {
      const api = client(server.url);
      expect(await api.get('/v4/get-routes', { authorization: 'Bearer short' })).toMatchObject({ status: 401, body: { code: 'INVALID_REQUEST', details: { expected: '32', actual: '5' } } });
      expect(await api.get('/v4/get-routes', { authorization: `Bearer ${'k'.repeat(32)}` })).toMatchObject({ status: 401, body: { code: 'INVALID_REQUEST', error: 'unknown API key' } });
      expect(await api.get('/v4/get-routes', { authorization: `Basic ${'k'.repeat(32)}` })).toMatchObject({ status: 401, body: { code: 'INVALID_REQUEST' } });
    } finally {
      await server.close();
    }
  });
});
