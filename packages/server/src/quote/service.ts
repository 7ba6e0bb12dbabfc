/**
 * get-quote: computes the quote, seals it (quote/seal.ts), and stores it so that create-order can
 * tell an issued, unused quote from one it never issued.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayQuoteV4 } from '@swap-gateway/types';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/database.js';
import { normalizeAddress } from '../chains/addresses.js';
import type { Route } from '../config/catalogue.js';
import { GatewayError } from '../http/errors.js';
import { computeQuote, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import type { QuoteSeal } from './seal.js';

export class QuoteService {
  constructor(
    private readonly db: Queryable,
    private readonly engine: QuoteEngineContext,
    private readonly seal: QuoteSeal,
    private readonly clock: Clock,
  ) {}

  async issue(request: QuoteRequest): Promise<GatewayQuoteV4> {
    const { route, quote, config } = computeQuote(request, this.engine);
    await this.checkVolumeLimits(config, request);
    const id = randomUUID();
    const exp = this.clock.now() + this.engine.config.quoteTtlSeconds * 1000;
    const sealed = this.seal.seal(quote, { id, route, exp });
    await this.db.query('INSERT INTO quotes (id, route, body, expires_at) VALUES ($1, $2, $3::text::jsonb, $4)', [id, route, JSON.stringify(sealed), new Date(exp).toISOString()]);
    return { [route]: sealed } as GatewayQuoteV4;
  }

  /** The route's volume limits, over the orders already taken (failed and refunded ones do not count). */
  private async checkVolumeLimits(route: Route, request: QuoteRequest): Promise<void> {
    const amount = BigInt(request.amount);
    const details = (limit: string) => ({ limit, token: route.src.address, chain_id: route.srcChain });
    const volume = async (where: string, params: unknown[]) =>
      BigInt(
        (
          await this.db.query<{ total: string }>(
            `SELECT COALESCE(SUM(src_amount), 0)::text AS total FROM orders WHERE src_chain = $1 AND src_token = $2 AND status IN ('inProgress', 'success') AND ${where}`,
            [route.srcChain, route.src.address, ...params],
          )
        )[0]!.total,
      );
    const account = request.sender ?? request.refundAddress;
    if (route.perAccountLimit !== undefined && account !== undefined) {
      const since = new Date(this.clock.now() - 24 * 3600 * 1000).toISOString();
      const address = normalizeAddress(this.engine.catalogue.kindOf(route.srcChain), account);
      if (amount + (await volume('(sender = $3 OR refund_address = $3) AND created_at > $4', [address, since])) > BigInt(route.perAccountLimit)) {
        throw new GatewayError('PER_ACCOUNT_LIMIT_EXCEEDED', 'the daily limit of this account is reached', details(route.perAccountLimit));
      }
    }
    if (route.globalLimit !== undefined && amount + (await volume(`status = 'inProgress'`, [])) > BigInt(route.globalLimit)) {
      throw new GatewayError('GLOBAL_LIMIT_EXCEEDED', "the route's global limit is reached", details(route.globalLimit));
    }
  }
}
