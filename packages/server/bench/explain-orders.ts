/**
 * `npx tsx bench/explain-orders.ts ['CREATE INDEX ...; ...']`: EXPLAIN ANALYZE of every query on
 * orders that a request or the lifecycle loop runs (the functions of src/orders/queries.ts, called
 * as the server calls them), on a throwaway PostgreSQL holding 200,000 orders
 * (a twentieth open, a third on the route with volume limits), after VACUUM ANALYZE. The optional
 * argument runs extra statements after the migrations, to try an index before writing a migration.
 */
import { findPostgres, startPostgres } from '@swap-gateway/test-support/postgres';
import { dueOrders, findOrder, listOrders, orderByQuote } from '../src/orders/queries.js';
import { routeVolume } from '../src/volumes/queries.js';
import { openDatabase, type Queryable } from '../src/store/database.js';
import { migrate } from '../src/store/migrations.js';

const binaries = findPostgres();
if ('missing' in binaries) throw new Error(binaries.missing);
const cluster = await startPostgres(binaries);
const extra = process.argv[2];
try {
  const db = await openDatabase({ databaseUrl: cluster.url });
  await migrate(db);
  if (extra) for (const s of extra.split(';').filter((x) => x.trim())) await db.query(s);
  await db.query(`INSERT INTO orders (id, quote_id, api_version, route, src_chain, src_token, src_amount, dst_chain, dst_token, dst_amount, sender, recipient, refund_address, estimated_time_secs, status, src_tx_hash, src_seen_at, created_at)
    SELECT gen_random_uuid(), gen_random_uuid(), 'v4', 'onramp', CASE WHEN i % 3 = 0 THEN 'tron' ELSE 'bitcoin' END, CASE WHEN i % 3 = 0 THEN 'TR7' ELSE '0x0' END, 1000000, 'bob', '0xabc', 990000,
      'sender' || (i % 2000), 'recipient' || (i % 3000), 'refund' || (i % 2500), 600,
      CASE WHEN i % 20 = 0 THEN 'inProgress' WHEN i % 23 = 0 THEN 'failed' ELSE 'success' END,
      md5(i::text), CASE WHEN i % 40 = 0 THEN NULL ELSE now() END, now() - (i || ' seconds')::interval
    FROM generate_series(1, 200000) AS i`);
  // The open orders on the lifecycle's agenda, one in a hundred of them due.
  await db.query(`INSERT INTO order_agenda (order_id, due_at)
    SELECT id, now() + CASE WHEN seq % 100 = 0 THEN interval '-1 second' ELSE interval '1 hour' END FROM orders WHERE status = 'inProgress'`);
  await db.query('VACUUM ANALYZE orders');
  await db.query('VACUUM ANALYZE order_agenda');
  const id = (await db.query<{ id: string }>('SELECT id::text AS id FROM orders LIMIT 1'))[0]!.id;
  // The statements of src/orders/queries.ts themselves: each query is explained, then run.
  let step = '';
  const explaining: Queryable = {
    async query<Row>(sql: string, params?: unknown[]) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`, params);
      console.log(`\n-- ${step}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
      return db.query<Row>(sql, params);
    },
  };
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['get-order by id', () => findOrder(explaining, id)],
    ['get-order by source tx hash', () => findOrder(explaining, 'c4ca4238a0b923820dcc509a6f75849b')],
    ['get-orders (first page)', () => listOrders(explaining, ['sender7'], 51)],
    ['get-orders (next page)', () => listOrders(explaining, ['sender7'], 51, '100000')],
    ['lifecycle: the orders due', () => dueOrders(explaining, Date.now(), 200, undefined, [])],
    ['volume limit, per account', () => routeVolume(explaining, 'tron', 'TR7', { account: 'sender8', sinceMs: Date.now() - 86_400_000 })],
    ['volume limit, global', () => routeVolume(explaining, 'tron', 'TR7', 'open')],
    ['duplicate quote', () => orderByQuote(explaining, id)],
  ];
  for (const [name, run] of steps) {
    step = name;
    await run();
  }
  await db.close();
} finally {
  await cluster.stop();
}
