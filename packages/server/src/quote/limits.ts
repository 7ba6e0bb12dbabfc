/**
 * The route's volume limits over the orders already taken (failed and refunded ones do not count):
 * `perAccountLimit` over a day of one account's orders, `globalLimit` over the route's open orders.
 * get-quote checks them to answer early; create-order checks them again inside its transaction,
 * after taking the route's lock, so concurrent orders cannot pass the limit together.
 */
import { normalizeAddress } from '../chains/addresses.js';
import type { Catalogue, Route } from '../config/catalogue.js';
import { DomainError } from '../errors.js';
import type { Queryable } from '../store/database.js';
import type { VolumeCache } from './volume-cache.js';

export interface VolumeRequest {
  amount: bigint;
  /** The sender, else the refund address; none means no per-account limit applies. */
  account: string | undefined;
  nowMs: number;
}

/**
 * Throws the limit's error when the request would pass one. With a cache (get-quote's early answer)
 * the sums may be up to the cache's age old; without one (create-order) they are read in `db`.
 */
export async function checkVolumeLimits(db: Queryable, catalogue: Catalogue, route: Route, request: VolumeRequest, cache?: VolumeCache): Promise<void> {
  const details = (limit: string) => ({ limit, token: route.src.address, chain_id: route.srcChain });
  const volume = async (scope: string, where: string, params: unknown[]) => {
    const read = async () =>
      BigInt(
        (
          await db.query<{ total: string }>(
            `SELECT COALESCE(SUM(src_amount), 0)::text AS total FROM orders WHERE src_chain = $1 AND src_token = $2 AND status IN ('inProgress', 'success') AND ${where}`,
            [route.srcChain, route.src.address, ...params],
          )
        )[0]!.total,
      );
    return cache ? cache.sum(`${route.srcChain}:${route.src.address}:${scope}`, request.nowMs, read) : read();
  };
  if (route.perAccountLimit !== undefined && request.account !== undefined) {
    const since = new Date(request.nowMs - 24 * 3600 * 1000).toISOString();
    const address = normalizeAddress(catalogue.kindOf(route.srcChain), request.account);
    if (request.amount + (await volume(`account:${address}`, '(sender = $3 OR refund_address = $3) AND created_at > $4', [address, since])) > BigInt(route.perAccountLimit)) {
      throw new DomainError('PER_ACCOUNT_LIMIT_EXCEEDED', 'the daily limit of this account is reached', details(route.perAccountLimit));
    }
  }
  if (route.globalLimit !== undefined && request.amount + (await volume('open', `status = 'inProgress'`, [])) > BigInt(route.globalLimit)) {
    throw new DomainError('GLOBAL_LIMIT_EXCEEDED', "the route's global limit is reached", details(route.globalLimit));
  }
}

/**
 * Serialises the create-orders of one route until the transaction ends (PostgreSQL advisory lock;
 * PGlite runs one transaction at a time anyway), so the limit check and the insert are one step.
 */
export async function lockRouteVolume(tx: Queryable, route: Route): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`volume:${route.srcChain}:${route.src.address}`]);
}
