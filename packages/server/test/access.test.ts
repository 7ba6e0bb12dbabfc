/** API keys issued by the operator command, and rate limits lower without a key than with one. */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { ApiKeys, generateApiKey, issueApiKey } from '../src/keys/keys.js';
import { openDatabase, type Queryable } from '../src/store/database.js';
import { migrate } from '../src/store/migrations.js';
import type { RunningServer } from '../src/index.js';
import { client, freshDataDir, sharedStorePerSuite, testServer } from './helpers.js';
import { shortLivedNodeFlags } from './fixtures/node-flags.js';

const run = promisify(execFile);
const dataDir = freshDataDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// The servers in memory share one store: each counts its rate limits in its own process, and the
// keys a test issues are its own (the first test's server has the key store on disk to itself).
const store = sharedStorePerSuite();

describe('API keys', () => {
  it('issues a 32-character key with keys:issue, stores only its hash, and accepts it after a restart', async () => {
    // The build's command (the test task depends on it): pnpm and tsx around it cost about 1.5 s of CPU a run.
    const { stdout } = await run(
      process.execPath,
      [...shortLivedNodeFlags, 'dist/keys/issue-cli.js', '--label', 'acme', '--data-dir', dataDir],
      {
        cwd: join(import.meta.dirname, '..'),
      },
    );
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
      // Verified before it is counted: every request with the key is counted against the key's budget.
      for (let i = 0; i < 6; i++) {
        const answer = await withKey.get('/v4/get-routes');
        expect(answer.status).toBe(200);
        // The document declares no rate-limit headers on a normal answer.
        expect([...answer.headers.keys()].filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
      }
      const keyLimited = await withKey.get('/v4/get-routes');
      expect(keyLimited).toMatchObject({ status: 429, body: { code: 'EXCEEDED_LIMIT', details: { limit: '6' } } });

      for (let i = 0; i < 3; i++) expect((await anonymous.get('/v4/get-routes')).status).toBe(200);
      const limited = await anonymous.get('/v4/get-routes');
      expect(limited).toMatchObject({ status: 429, body: { code: 'EXCEEDED_LIMIT', details: { limit: '3' } } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect([...limited.headers.keys()].filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
      // The health check is not rate limited.
      expect((await anonymous.get('/health')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a malformed or unknown key with 401', async () => {
    const server = await testServer({ database: store() });
    try {
      const api = client(server.url);
      expect(await api.get('/v4/get-routes', { authorization: 'Bearer short' })).toMatchObject({
        status: 401,
        body: { code: 'INVALID_REQUEST', details: { expected: '32', actual: '5' } },
      });
      expect(await api.get('/v4/get-routes', { authorization: `Bearer ${'k'.repeat(32)}` })).toMatchObject({
        status: 401,
        body: { code: 'INVALID_REQUEST', error: 'unknown API key' },
      });
      expect(await api.get('/v4/get-routes', { authorization: `Basic ${'k'.repeat(32)}` })).toMatchObject({
        status: 401,
        body: { code: 'INVALID_REQUEST' },
      });
    } finally {
      await server.close();
    }
  });
});

describe('keys and the rate limit', () => {
  /** Counts the key lookups the server makes from now on. */
  function countLookups(server: RunningServer): { readonly count: number } {
    const { db } = server.services;
    const query = db.query.bind(db);
    const counter = { count: 0 };
    db.query = ((sql: string, params?: unknown[]) => {
      if (sql.includes('FROM api_keys')) counter.count++;
      return query(sql, params);
    }) as typeof db.query;
    return counter;
  }

  it('serves a valid key its process has not seen yet when keyless traffic has spent its address budget', async () => {
    const server = await testServer({ database: store(), config: { rateLimits: { windowSeconds: 60, anonymous: 2, apiKey: 5 } } });
    try {
      const { key } = await issueApiKey(server.services.db, 'partner');
      const anonymous = client(server.url);
      for (let i = 0; i < 2; i++) expect((await anonymous.get('/v4/get-routes')).status).toBe(200);
      expect(await anonymous.get('/v4/get-routes')).toMatchObject({ status: 429, body: { details: { limit: '2' } } });
      // Before, this key was counted against the spent keyless budget of its address first: 429.
      const withKey = client(server.url, { authorization: `Bearer ${key}` });
      for (let i = 0; i < 5; i++) expect((await withKey.get('/v4/get-routes')).status, String(i)).toBe(200);
      expect(await withKey.get('/v4/get-routes')).toMatchObject({ status: 429, body: { details: { limit: '5' } } });
    } finally {
      await server.close();
    }
  });

  it('looks bad keys up at most keyLookups times per address, and counts them against its keyless budget', async () => {
    const server = await testServer({
      database: store(),
      config: { rateLimits: { windowSeconds: 60, anonymous: 3, apiKey: 6, keyLookups: 2 } },
    });
    try {
      const lookups = countLookups(server);
      const api = client(server.url);
      // A malformed key needs no lookup; two unknown keys need one each. All three are counted.
      expect(await api.get('/v4/get-routes', { authorization: 'Bearer short' })).toMatchObject({ status: 401 });
      for (let i = 0; i < 2; i++)
        expect(await api.get('/v4/get-routes', { authorization: `Bearer ${generateApiKey()}` })).toMatchObject({
          status: 401,
          body: { error: 'unknown API key' },
        });
      expect(lookups.count).toBe(2);
      // The lookups are spent: another key, unknown or not, is refused without one.
      const { key } = await issueApiKey(server.services.db, 'behind the same address');
      for (const presented of [generateApiKey(), key]) {
        const answer = await api.get('/v4/nowhere', { authorization: `Bearer ${presented}` });
        expect(answer).toMatchObject({ status: 429, body: { code: 'EXCEEDED_LIMIT', details: { limit: '2' } } });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(lookups.count).toBe(2);
      // The keyless budget of 3 is spent too: a malformed key and no key get its 429.
      for (const headers of [{ authorization: 'Bearer short' }, {}] as Record<string, string>[]) {
        const answer = await api.get('/v4/get-routes', headers);
        expect(answer).toMatchObject({ status: 429, body: { code: 'EXCEEDED_LIMIT', error: expect.any(String), details: { limit: '3' } } });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(lookups.count).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('looks a valid key up once and keeps it out of the keyless budget, which stays whole', async () => {
    const server = await testServer({ database: store(), config: { rateLimits: { windowSeconds: 60, anonymous: 2, apiKey: 5 } } });
    try {
      const lookups = countLookups(server);
      const { key } = await issueApiKey(server.services.db, 'partner');
      const withKey = client(server.url, { authorization: `Bearer ${key}` });
      for (let i = 0; i < 5; i++) expect((await withKey.get('/v4/get-routes')).status, String(i)).toBe(200);
      expect(await withKey.get('/v4/get-routes')).toMatchObject({ status: 429, body: { details: { limit: '5' } } });
      expect(lookups.count).toBe(1);
      const anonymous = client(server.url);
      for (let i = 0; i < 2; i++) expect((await anonymous.get('/v4/get-routes')).status).toBe(200);
      expect(await anonymous.get('/v4/get-routes')).toMatchObject({ status: 429, body: { details: { limit: '2' } } });
    } finally {
      await server.close();
    }
  });
});

describe('key comparison', () => {
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

  it('looks keys up by a hash prefix only and lets the constant-time comparison decide', async () => {
    const key = generateApiKey();
    const hash = sha256(key);
    const rows = [
      { id: 'same prefix, other key', key_hash: hash.slice(0, 16) + (hash[16] === '0' ? '1' : '0') + hash.slice(17) },
      { id: 'the key', key_hash: hash },
    ];
    const seen: unknown[][] = [];
    const db: Queryable = {
      query: async <Row>(_sql: string, params: unknown[] = []) => {
        seen.push(params);
        return rows as Row[];
      },
    };
    expect(await new ApiKeys(db).verify(key)).toBe('the key');
    expect(await new ApiKeys({ query: async <Row>() => rows.slice(0, 1) as Row[] }).verify(key)).toBeUndefined();
    // The database sees 64 bits of the hash, never the hash it would otherwise compare in variable time.
    expect(seen).toEqual([[hash.slice(0, 16)]]);
  });

  it('migration 002 gives keys issued before it their prefix, and they keep working', async () => {
    const db = await openDatabase({});
    try {
      await migrate(db);
      // Back to the schema of 001 with a key issued then, then forward again.
      await db.query('DROP INDEX api_keys_key_hash_prefix');
      await db.query('ALTER TABLE api_keys DROP COLUMN key_hash_prefix');
      await db.query("DELETE FROM gateway_migrations WHERE id = '002_api_key_hash_prefix'");
      const { id, key } = await issueApiKey(db, 'legacy');
      expect(await migrate(db)).toEqual(['002_api_key_hash_prefix']);
      expect(await db.query('SELECT key_hash_prefix FROM api_keys')).toEqual([{ key_hash_prefix: sha256(key).slice(0, 16) }]);
      expect(await new ApiKeys(db).verify(key)).toBe(id);
    } finally {
      await db.close();
    }
  });
});

describe('the client behind a proxy (server.trustProxy)', () => {
  const rateLimits = { windowSeconds: 60, anonymous: 2, apiKey: 100 };
  const from = (server: RunningServer, address: string) => client(server.url, { 'x-forwarded-for': address }).get('/v4/get-routes');

  it('counts by the connection address, whatever X-Forwarded-For says, by default', async () => {
    const server = await testServer({ database: store(), config: { rateLimits } });
    try {
      const statuses = [];
      for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) statuses.push((await from(server, address)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await server.close();
    }
  });

  it('counts by the forwarded client when the proxy is trusted', async () => {
    const server = await testServer({ database: store(), config: { rateLimits, server: { trustProxy: ['127.0.0.1'] } } });
    try {
      const statuses = [];
      for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.1', '203.0.113.1'])
        statuses.push((await from(server, address)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      // A client that sends the header itself is counted by the address the trusted proxy appended.
      expect((await from(server, '203.0.113.1, 203.0.113.9')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a hop count or true: a client reaching the server directly would name its own address', () => {
    for (const trustProxy of [1, true, [], ['not an address']])
      expect(() => loadConfig({ env: {}, overrides: { server: { trustProxy } as never } }), JSON.stringify(trustProxy)).toThrow(
        /server\.trustProxy must be false or a list/,
      );
    expect(loadConfig({ env: { GATEWAY_TRUST_PROXY: '10.0.0.0/8, uniquelocal,::1' } }).server.trustProxy).toEqual([
      '10.0.0.0/8',
      'uniquelocal',
      '::1',
    ]);
  });
});
