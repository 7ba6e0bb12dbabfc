/**
 * The SQL of volume limits: the sums of a route's orders and the lock that serialises a route's
 * create-orders. A module of its own, read by get-quote (through volumes/cache.ts) and create-order
 * alike, so that neither quote/ nor orders/ reads the other's queries.
 */
import type { Queryable } from '../store/database.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The amount of a route's source token in orders taken (in progress or successful; failed and
 * refunded ones do not count): one account's since a time (as sender or refund address), or all
 * open orders'. The global sum is answered from the orders_open_volume index.
 */
export async function routeVolume(
  db: Queryable,
  srcChain: string,
  srcToken: string,
  scope: { account: string; sinceMs: number } | 'open',
): Promise<bigint> {
  const [where, params] =
    scope === 'open'
      ? [`status = 'inProgress'`, []]
      : ['(sender = $3 OR refund_address = $3) AND created_at > $4', [scope.account, iso(scope.sinceMs)]];
  const [row] = await db.query<{ total: string }>(
    `SELECT COALESCE(SUM(src_amount), 0)::text AS total FROM orders WHERE src_chain = $1 AND src_token = $2 AND status IN ('inProgress', 'success') AND ${where}`,
    [srcChain, srcToken, ...params],
  );
  return BigInt(row!.total);
}

/**
 * Serialises the create-orders of one route until the transaction ends (PostgreSQL advisory lock;
 * PGlite runs one transaction at a time anyway), so the limit check and the insert are one step.
 */
export async function lockRouteVolume(tx: Queryable, srcChain: string, srcToken: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`volume:${srcChain}:${srcToken}`]);
}
