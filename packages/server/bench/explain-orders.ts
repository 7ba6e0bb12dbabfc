/**
 * `npx tsx bench/explain-orders.ts ['CREATE INDEX ...; ...']`: EXPLAIN ANALYZE of every query on
 * orders that a request or the lifecycle loop runs, on a throwaway PostgreSQL holding 200,000 orders
 * (a twentieth open, a third on the route with volume limits), after VACUUM ANALYZE. The optional
 * argument runs extra statements after the migrations, to try an index before writing a migration.
 */
import { findPostgres, startPostgres } from '../src/dev/postgres-cluster.js';
import { openDatabase } from '../src/store/database.js';
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
  await db.query('VACUUM ANALYZE orders');
  const id = (await db.query<{ id: string }>('SELECT id::text AS id FROM orders LIMIT 1'))[0]!.id;
  const queries: Array<[string, string, unknown[]]> = [
    ['get-order by id', 'SELECT * FROM orders WHERE id = $1', [id]],
    ['get-order by source tx hash', 'SELECT * FROM orders WHERE src_tx_hash = $1 ORDER BY orders.seq DESC LIMIT 1', [ 'c4ca4238a0b923820dcc509a6f75849b']],
    ['get-orders (first page)', `SELECT * FROM orders WHERE (sender = $1 OR recipient = $1 OR refund_address = $1) AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY orders.seq DESC LIMIT $3`, ['sender7', null, 50]],
    ['get-orders (next page)', `SELECT * FROM orders WHERE (sender = $1 OR recipient = $1 OR refund_address = $1) AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY orders.seq DESC LIMIT $3`, ['sender7', 100000, 50]],
    ['lifecycle: open orders, source seen', `SELECT * FROM orders WHERE status = 'inProgress' AND (src_seen_at IS NOT NULL) = $1 ORDER BY orders.seq`, [true]],
    ['volume limit, per account', `SELECT COALESCE(SUM(src_amount), 0)::text AS total FROM orders WHERE src_chain = $1 AND src_token = $2 AND status IN ('inProgress', 'success') AND (sender = $3 OR refund_address = $3) AND created_at > $4`, ['tron', 'TR7', 'sender8', new Date(Date.now() - 86400000).toISOString()]],
    ['volume limit, global', `SELECT COALESCE(SUM(src_amount), 0)::text AS total FROM orders WHERE src_chain = $1 AND src_token = $2 AND status IN ('inProgress', 'success') AND status = 'inProgress'`, ['tron', 'TR7']],
    ['duplicate quote', 'SELECT id::text AS id FROM orders WHERE quote_id = $1', [id]],
  ];
  for (const [name, sql, params] of queries) {
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`, params);
    console.log(`\n-- ${name}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
  await db.close();
} finally {
  await cluster.stop();
}
