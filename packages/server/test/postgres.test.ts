/**
 * The same store on a real PostgreSQL server (DATABASE_URL): migrations, concurrent reservations
 * over separate connections, duplicate detection under a race, a restart, and get-order's reads
 * arriving together going as one query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/store/database.js';
import { orderReads } from '../src/orders/reads.js';
import { migrate } from '../src/store/migrations.js';
import { client, onrampParams, testServer, wbtcBob } from './helpers.js';
import { findPostgres, startPostgres, type PostgresCluster } from '@swap-gateway/test-support/postgres';

const binaries = findPostgres();
if ('missing' in binaries) {
  // CI installs PostgreSQL (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the PostgreSQL store tests cannot run in CI: ${binaries.missing}`);
  console.warn(`[server] skipping the PostgreSQL store tests: ${binaries.missing}`);
}

describe.skipIf('missing' in binaries)('store on PostgreSQL', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres(binaries as Exclude<typeof binaries, { missing: string }>);
  });
  afterAll(() => cluster?.stop());

  it('applies the migrations once, even from two instances starting together', async () => {
    const [a, b] = await Promise.all([openDatabase({ databaseUrl: cluster.url }), openDatabase({ databaseUrl: cluster.url })]);
    try {
      const applied = await Promise.all([migrate(a), migrate(b)]);
      // One instance applies the whole list, the other waits on the lock and finds nothing left.
      expect(applied.flat()[0]).toBe('001_initial');
      expect(applied.map((ids) => ids.length).sort()).toEqual([0, applied.flat().length]);
      expect(await migrate(a)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('reserves atomically across connections, refuses a raced duplicate, and keeps orders across a restart', async () => {
    const sandbox = (await import('../config/sandbox.json', { with: { type: 'json' } })).default;
    const liquidity = sandbox.liquidity.map((entry) => (entry.token === wbtcBob ? { ...entry, amount: '3000000' } : entry));
    let server = await testServer({ databaseUrl: cluster.url, config: { liquidity } });
    let api = client(server.url);
    const quotes = await Promise.all(Array.from({ length: 8 }, () => api.quote(onrampParams())));
    const answers = await Promise.all(quotes.map((quote) => api.post('/v4/create-order', quote.body)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.body.code === 'INSUFFICIENT_SOLVER_BALANCE')).toHaveLength(5);

    const row = (await api.get('/sandbox/liquidity')).body.liquidity.find((entry: { token: string }) => entry.token === wbtcBob);
    expect(row).toMatchObject({ total: '3000000', reserved: String(3n * 995500n) });
    // Free the room again and race one quote against itself.
    for (const answer of answers.filter((answer) => answer.status === 201))
      await api.post(`/sandbox/orders/${answer.body.onramp.order_id}/outcome`, { outcome: 'failed' });
    const quote = (await api.quote(onrampParams())).body;
    const raced = await Promise.all(Array.from({ length: 4 }, () => api.post('/v4/create-order', quote)));
    expect(raced.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(raced.filter((answer) => answer.body.code === 'DUPLICATE_ORDER')).toHaveLength(3);
    const orderId = raced.find((answer) => answer.status === 201)!.body.onramp.order_id;
    await server.close();

    server = await testServer({ databaseUrl: cluster.url, config: { liquidity } });
    api = client(server.url);
    try {
      expect((await api.get('/health')).body).toEqual({ status: 'ok', storage: 'postgres' });
      expect((await api.get(`/v4/get-order/${orderId}`)).body.id).toBe(orderId);
    } finally {
      await server.close();
    }
  });

  it('reads orders by id that arrive together with one query, each after the writes acknowledged before it', async () => {
    const server = await testServer({ databaseUrl: cluster.url });
    const api = client(server.url);
    const db = await openDatabase({ databaseUrl: cluster.url });
    const statements: string[] = [];
    const counted: Database = {
      ...db,
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
    };
    try {
      const ids: string[] = [];
      for (const amount of ['1000000', '1000001', '1000002']) {
        const quote = (await api.quote(onrampParams({ amount }))).body;
        ids.push((await api.post('/v4/create-order', quote)).body.onramp.order_id);
      }
      const reads = orderReads(counted);
      const unknown = '00000000-0000-4000-8000-000000000000';
      const asked = [...ids, ids[0]!, unknown, ids[1]!.toUpperCase()];
      const found = await Promise.all(asked.map((id) => reads.find(id)));
      expect(found.map((row) => row?.id)).toEqual([...ids, ids[0], undefined, ids[1]]);
      expect(found.map((row) => row?.src_amount)).toEqual(['1000000', '1000001', '1000002', '1000000', undefined, '1000001']);
      expect(statements).toHaveLength(1);

      // An order written and acknowledged, then read: the read sees the write.
      expect((await api.post(`/sandbox/orders/${ids[0]}/outcome`, { outcome: 'failed' })).status).toBe(200);
      expect((await reads.find(ids[0]!))?.status).toBe('failed');
      expect(statements).toHaveLength(2);

      // A query that fails fails every read that was waiting for it, and the next reads go again.
      const failing = orderReads({ ...db, query: () => Promise.reject(new Error('connection terminated')) });
      const settled = await Promise.allSettled(ids.map((id) => failing.find(id)));
      expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect((await reads.find(ids[2]!))?.id).toBe(ids[2]);
    } finally {
      await db.close();
      await server.close();
    }
  });
});
