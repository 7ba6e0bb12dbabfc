/**
 * The same store on a real PostgreSQL server (DATABASE_URL): migrations, a database that refuses the
 * server, concurrent reservations over separate connections, duplicate detection under a race, a
 * restart, and get-order's reads: one query for the reads arriving together, a view kept current by
 * notifications, and what happens when the listening connection is lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { openDatabase, type Database, type ListeningConnection } from '../src/store/database.js';
import { issueApiKey } from '../src/keys/keys.js';
import { orderReads } from '../src/orders/reads.js';
import { migrate } from '../src/store/migrations.js';
import {
  type Answer,
  client,
  offrampParams,
  onrampParams,
  solanaSwapParams,
  startTestPostgres,
  testServer,
  usdcBase,
  wbtcBob,
} from './helpers.js';
import { findPostgres, type PostgresCluster } from '@swap-gateway/test-support/postgres';
import { runServerCommand } from './fixtures/command-line.js';

const binaries = findPostgres();
if ('missing' in binaries) {
  // CI installs PostgreSQL (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the PostgreSQL store tests cannot run in CI: ${binaries.missing}`);
  console.warn(`[server] skipping the PostgreSQL store tests: ${binaries.missing}`);
}

describe.skipIf('missing' in binaries)('store on PostgreSQL', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startTestPostgres(binaries);
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

  it('stops at a database that refuses it with one line of its own, exit 2, one process or several', async () => {
    const refusal = '[gateway] the database refused the server: database "no_such_database" does not exist';
    for (const workers of ['1', '2']) {
      const answer = await runServerCommand(['--port', '0', '--workers', workers], {
        DATABASE_URL: cluster.url.replace(/\/postgres$/, '/no_such_database'),
      });
      expect(answer.code, answer.stderr).toBe(2);
      // Besides the warning that rate limits are counted per process (no Redis here): the refusal, from
      // each process that reached the database before the group stopped.
      const said = answer.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.includes('counted'));
      expect(said.length, answer.stderr).toBeGreaterThan(0);
      expect(new Set(said), answer.stderr).toEqual(new Set([refusal]));
    }
  });

  it('reserves atomically across connections, refuses a raced duplicate, and keeps orders across a restart', async () => {
    const sandbox = (await import('../config/sandbox.json', { with: { type: 'json' } })).default;
    // Room for three orders of each: onramps (written in a transaction) and token swaps (in one statement).
    const races = [
      { route: 'onramp', params: onrampParams, token: wbtcBob, total: '3000000', each: 995500n },
      { route: 'tokenSwap', params: solanaSwapParams, token: usdcBase, total: '300000000', each: 99650000n },
    ] as const;
    const liquidity = sandbox.liquidity.map((entry) => {
      const race = races.find((candidate) => candidate.token === entry.token);
      return race ? { ...entry, amount: race.total } : entry;
    });
    let server = await testServer({ databaseUrl: cluster.url, config: { liquidity } });
    let api = client(server.url);
    for (const race of races) {
      const quotes = await Promise.all(Array.from({ length: 8 }, () => api.quote(race.params())));
      const answers = await Promise.all(quotes.map((quote) => api.post('/v4/create-order', quote.body)));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
      expect(answers.filter((answer) => answer.body.code === 'INSUFFICIENT_SOLVER_BALANCE')).toHaveLength(5);

      const row = (await api.get('/sandbox/liquidity')).body.liquidity.find((entry: { token: string }) => entry.token === race.token);
      expect(row).toMatchObject({ total: race.total, reserved: String(3n * race.each) });
      // An order's quote sent again is a duplicate, though the liquidity it would need is taken.
      const accepted = answers.findIndex((answer) => answer.status === 201);
      expect((await api.post('/v4/create-order', quotes[accepted]!.body)).body).toMatchObject({ code: 'DUPLICATE_ORDER' });
      // Free the room again.
      for (const answer of answers.filter((answer) => answer.status === 201))
        await api.post(`/sandbox/orders/${answer.body[race.route].order_id}/outcome`, { outcome: 'failed' });
    }
    // Race one quote against itself.
    const quote = (await api.quote(onrampParams())).body;
    const raced = await Promise.all(Array.from({ length: 4 }, () => api.post('/v4/create-order', quote)));
    expect(raced.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(raced.filter((answer) => answer.body.code === 'DUPLICATE_ORDER')).toHaveLength(3);
    const orderId = raced.find((answer) => answer.status === 201)!.body.onramp.order_id;
    await server.close();

    server = await testServer({ databaseUrl: cluster.url, config: { liquidity } });
    api = client(server.url);
    try {
      expect((await api.get('/health')).body).toEqual({
        status: 'ok',
        storage: 'postgres',
        dependencies: { database: 'ok', rateLimitStore: 'ok' },
      });
      expect((await api.get(`/v4/get-order/${orderId}`)).body.id).toBe(orderId);
    } finally {
      await server.close();
    }
  });

  it("counts a client's unpaid orders exactly while its orders are created and settled at once", async () => {
    const orders = { defaultPageSize: 20, maxPageSize: 100, maxUnpaidPerClient: { anonymous: 200, apiKey: 3 } };
    const server = await testServer({ databaseUrl: cluster.url, config: { orders } });
    try {
      const { key } = await issueApiKey(server.services.db, 'unpaid count test');
      const keyed = client(server.url, { authorization: `Bearer ${key}` });
      // Onramps (written in a transaction) and offramps (in one statement: orders/queries.ts writeOrder) in turn.
      const createAll = async (count: number) => {
        const quotes = await Promise.all(
          Array.from({ length: count }, (_, i) => keyed.quote(i % 2 ? offrampParams() : onrampParams({ amount: String(100_000 + i) }))),
        );
        return Promise.all(quotes.map((quote) => keyed.post('/v4/create-order', quote.body)));
      };
      const orderId = (answer: Answer) => (Object.values(answer.body)[0] as { order_id: string }).order_id;
      const first = await createAll(8);
      expect(first.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);

      // The three unpaid orders fail while six more arrive: places are freed and taken in any order, never beyond three.
      const settling = first
        .filter((answer) => answer.status === 201)
        .map((answer) => keyed.post(`/sandbox/orders/${orderId(answer)}/outcome`, { outcome: 'failed' }));
      const [failed, second] = await Promise.all([Promise.all(settling), createAll(6)]);
      expect(failed.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(
        second.every((answer) => answer.status === 201 || answer.body.code === 'EXCEEDED_LIMIT'),
        JSON.stringify(second.map((a) => a.body)),
      ).toBe(true);
      const counts = await server.services.db.query<{ unpaid: number; actual: number }>(
        `SELECT unpaid, (SELECT count(*)::int FROM orders o WHERE o.client = c.client AND o.status = 'inProgress' AND o.src_seen_at IS NULL) AS actual
         FROM client_unpaid_orders c`,
      );
      for (const row of counts) expect(row.unpaid).toBe(row.actual);
      expect(second.filter((answer) => answer.status === 201).length).toBeLessThanOrEqual(3);
      // Every refused order gave its reservation back: what is reserved is what the open orders deliver.
      const reservations = await server.services.db.query<{ token: string; reserved: string; open: string }>(
        `SELECT l.token, l.reserved::text AS reserved,
           (SELECT coalesce(sum(o.dst_amount), 0)::text FROM orders o WHERE o.dst_chain = l.chain AND o.dst_token = l.token AND o.status = 'inProgress') AS open
         FROM liquidity l`,
      );
      for (const row of reservations) expect(row.reserved, row.token).toBe(row.open);
    } finally {
      await server.close();
    }
  });

  describe('get-order reads: a view kept current by notifications', () => {
    /**
     * A database whose listening connection records the ids each of its queries asks for (none for
     * a barrier, whose kind it records too) and the notifications it receives, can be made to fail,
     * and can hold a query's answer back.
     */
    const watched = (db: Database) => {
      const asked: string[][] = [];
      const kinds: Array<'query' | 'barrier'> = [];
      /** How many queries PostgreSQL has answered (an answer held back included). */
      let answered = 0;
      const notified: string[] = [];
      let failing = false;
      let held: Promise<void> | undefined;
      let listening: ListeningConnection | undefined;
      const database: Database = {
        ...db,
        async listen(channel, events) {
          const connection = await db.listen!(channel, {
            ...events,
            notified: (payload) => {
              notified.push(payload);
              events.notified(payload);
            },
          });
          listening = connection;
          const roundTrip = async <T>(kind: 'query' | 'barrier', ids: string[], send: () => Promise<T>) => {
            asked.push(ids);
            kinds.push(kind);
            if (failing) throw new Error('connection terminated');
            const answer = await send();
            answered++;
            await held;
            return answer;
          };
          return {
            close: () => connection.close(),
            query: (sql, params) => roundTrip('query', (params?.[0] as string[]) ?? [], () => connection.query(sql, params)) as never,
            barrier: () => roundTrip('barrier', [], () => connection.barrier()),
          };
        },
      };
      /** Holds the answers of the listening connection's queries until the promise returned is called. */
      const hold = () => {
        let release = () => {};
        held = new Promise((resolve) => (release = resolve));
        return () => {
          held = undefined;
          release();
        };
      };
      /** Returns once every notification of a commit acknowledged before it has reached the view (not recorded in `asked`). */
      const caughtUp = () => listening!.barrier();
      return { database, asked, kinds, notified, hold, caughtUp, answered: () => answered, fail: (value: boolean) => (failing = value) };
    };

    let server: RunningServer;
    let api: ReturnType<typeof client>;
    let db: Database;
    const ids: string[] = [];
    beforeAll(async () => {
      server = await testServer({ databaseUrl: cluster.url });
      api = client(server.url);
      db = await openDatabase({ databaseUrl: cluster.url });
      for (const amount of ['1000000', '1000001', '1000002']) {
        const quote = (await api.quote(onrampParams({ amount }))).body;
        ids.push((await api.post('/v4/create-order', quote)).body.onramp.order_id);
      }
    });
    afterAll(async () => {
      await db?.close();
      await server?.close();
    });

    it('reads the orders asked for together with one query, and orders read before with none', async () => {
      const { database, asked, kinds } = watched(db);
      const reads = await orderReads(database);
      try {
        const unknown = '00000000-0000-4000-8000-000000000000';
        const request = [...ids, ids[0]!, unknown, ids[1]!.toUpperCase()];
        const found = await Promise.all(request.map((id) => reads.find(id)));
        expect(found.map((row) => row?.id)).toEqual([...ids, ids[0], undefined, ids[1]]);
        expect(found.map((row) => row?.src_amount)).toEqual(['1000000', '1000001', '1000002', '1000000', undefined, '1000001']);
        expect(asked).toEqual([[...ids, unknown]]);
        // Read again: from the view, after a round trip that asks for nothing but the notifications sent before it.
        expect((await Promise.all(ids.map((id) => reads.find(id)))).map((row) => row?.id)).toEqual(ids);
        expect(asked).toEqual([[...ids, unknown], []]);
        expect(kinds).toEqual(['query', 'barrier']);
      } finally {
        await reads.close();
      }
    });

    it('answers a settled order kept in the view with no query: it cannot change again', async () => {
      const { database, asked, caughtUp } = watched(db);
      const reads = await orderReads(database);
      try {
        const quote = (await api.quote(onrampParams({ amount: '1000003' }))).body;
        const id = (await api.post('/v4/create-order', quote)).body.onramp.order_id as string;
        expect((await api.post(`/sandbox/orders/${id}/outcome`, { outcome: 'refunded' })).status).toBe(200);
        // The refund's notification may otherwise reach the view while the first read's query is on its
        // way; the view then keeps nothing that query read (it cannot tell an earlier change from a
        // later one), and the second read would ask again.
        await caughtUp();
        expect((await reads.find(id))?.status).toBe('refunded');
        expect(asked).toEqual([[id]]);
        expect((await reads.find(id))?.status).toBe('refunded');
        expect(asked).toEqual([[id]]);
        // The database holds what the view relies on: a settled order is not updated, not even by hand.
        await expect(db.query('UPDATE orders SET estimated_time_secs = 1 WHERE id = $1', [id])).rejects.toThrow(/is settled/);
      } finally {
        await reads.close();
      }
    });

    it('keeps no row that a query read before a change notified while its answer was on its way', async () => {
      const { database, asked, notified, hold, answered } = watched(db);
      const reads = await orderReads(database);
      try {
        const id = ids[0]!;
        const update = async (value: number) => {
          const before = notified.length;
          await db.query('UPDATE orders SET estimated_time_secs = $2 WHERE id = $1', [id, value]);
          await expect.poll(() => notified.slice(before)).toContain(id);
        };
        // Not kept: the query reads the order, then a change commits and is notified before its answer is taken.
        let release = hold();
        const missed = reads.find(id);
        await expect.poll(answered).toBe(1);
        expect(asked).toEqual([[id]]);
        await update(101);
        release();
        expect((await missed)?.estimated_time_secs).not.toBe(101);
        expect((await reads.find(id))?.estimated_time_secs).toBe(101);
        expect(asked.slice(-2)).toEqual([[id], [id]]);
        // Kept: the query that would confirm it is held while a change drops it, so the read goes to the next query.
        expect((await reads.find(id))?.estimated_time_secs).toBe(101);
        expect(asked.at(-1)).toEqual([]);
        release = hold();
        const kept = reads.find(id);
        await expect.poll(answered).toBe(4);
        await update(102);
        release();
        expect((await kept)?.estimated_time_secs).toBe(102);
        expect(asked.slice(-2)).toEqual([[], [id]]);
      } finally {
        await reads.close();
      }
    });

    it('answers every read with the writes acknowledged before it, whichever connection wrote them', async () => {
      const reads = await orderReads(db);
      try {
        const [id] = ids as [string];
        await reads.find(id);
        // Another writer (another instance, or a statement by hand) updates the order, and its
        // commit is acknowledged; only then is the order read, with no pause in between.
        for (let value = 1; value <= 300; value++) {
          await db.query('UPDATE orders SET estimated_time_secs = $2 WHERE id = $1', [id, value]);
          const [first, second] = await Promise.all([reads.find(id), reads.find(id)]);
          expect([first?.estimated_time_secs, second?.estimated_time_secs]).toEqual([value, value]);
        }
        // An acknowledged write through the server's API (another instance), of an order this view keeps.
        expect((await reads.find(ids[2]!))?.status).toBe('inProgress');
        expect((await api.post(`/sandbox/orders/${ids[2]}/outcome`, { outcome: 'failed' })).status).toBe(200);
        expect((await reads.find(ids[2]!))?.status).toBe('failed');
      } finally {
        await reads.close();
      }
    });

    it('reads from the pool while the listening connection is down, and keeps orders again once it is back', async () => {
      const { database, asked, fail } = watched(db);
      const reads = await orderReads(database);
      try {
        const id = ids[1]!;
        /** Waits until reads go to the listening connection again (it is opened again a second after it was lost). */
        const listening = () =>
          expect
            .poll(
              async () => {
                const before = asked.length;
                await reads.find(id);
                return asked.length > before;
              },
              { timeout: 5000, interval: 100 },
            )
            .toBe(true);
        await listening();
        // The listening connection fails under a query: that read is answered from the pool.
        fail(true);
        await db.query('UPDATE orders SET estimated_time_secs = 7 WHERE id = $1', [id]);
        expect((await reads.find(id))?.estimated_time_secs).toBe(7);
        fail(false);
        await listening();
        // Its backend terminated (PostgreSQL restarted, the network cut): reads go on, every write seen.
        await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'gateway listening on %'");
        for (const value of [8, 9]) {
          await db.query('UPDATE orders SET estimated_time_secs = $2 WHERE id = $1', [id, value]);
          expect((await reads.find(id))?.estimated_time_secs).toBe(value);
        }
        await listening();
        // Listening again, the view keeps what it reads (the next query asks for nothing) and drops what changes.
        await reads.find(id);
        expect(asked.at(-1)).toEqual([]);
        await db.query('UPDATE orders SET estimated_time_secs = 10 WHERE id = $1', [id]);
        expect((await reads.find(id))?.estimated_time_secs).toBe(10);
      } finally {
        await reads.close();
      }
    });

    it('fails a read only when the pool fails too', async () => {
      const { database, fail } = watched(db);
      const reads = await orderReads({ ...database, query: () => Promise.reject(new Error('pool exhausted')) });
      try {
        fail(true);
        const settled = await Promise.allSettled(ids.map((id) => reads.find(id)));
        expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      } finally {
        await reads.close();
      }
    });
  });
});
