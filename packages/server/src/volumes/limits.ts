/**
 * The route's volume limits over the orders already taken (failed and refunded ones do not count):
 * `perAccountLimit` over a day of one account's orders, `globalLimit` over the route's open orders.
 * get-quote checks them to answer early; create-order checks them again inside its transaction,
 * after taking the route's lock, so concurrent orders cannot pass the limit together.
 */
import { normalizeAddress } from '../chains/addresses.js';
import type { Catalogue, Route } from '../config/catalogue.js';
import { DomainError } from '../errors.js';
import { routeVolume } from './queries.js';
import type { Queryable } from '../store/database.js';
import type { VolumeCache } from './cache.js';

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
export async function checkVolumeLimits(
  db: Queryable,
  catalogue: Catalogue,
  route: Route,
  request: VolumeRequest,
  cache?: VolumeCache,
): Promise<void> {
  const details = (limit: string) => ({ limit, token: route.src.address, chain_id: route.srcChain });
  const volume = async (key: string, scope: Parameters<typeof routeVolume>[3]) => {
    const read = () => routeVolume(db, route.srcChain, route.src.address, scope);
    return cache ? cache.sum(`${route.srcChain}:${route.src.address}:${key}`, request.nowMs, read) : read();
  };
  if (route.perAccountLimit !== undefined && request.account !== undefined) {
    const address = normalizeAddress(catalogue.kindOf(route.srcChain), request.account);
    if (
      request.amount + (await volume(`account:${address}`, { account: address, sinceMs: request.nowMs - 24 * 3600 * 1000 })) >
      BigInt(route.perAccountLimit)
    ) {
      throw new DomainError('PER_ACCOUNT_LIMIT_EXCEEDED', 'the daily limit of this account is reached', details(route.perAccountLimit));
    }
  }
  if (route.globalLimit !== undefined && request.amount + (await volume('open', 'open')) > BigInt(route.globalLimit)) {
    throw new DomainError('GLOBAL_LIMIT_EXCEEDED', "the route's global limit is reached", details(route.globalLimit));
  }
}
