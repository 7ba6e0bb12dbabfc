/**
 * get-quote: computes the quote and seals it (quote/seal.ts). Nothing is stored: the seal carries
 * the quote's id and expiry, and create-order verifies it. Only a route with volume limits reads
 * the store, to answer an exceeded limit early, and then through a cache of the sums
 * (quote/volume-cache.ts); create-order enforces the limits exactly.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayQuoteV4 } from '@swap-gateway/types';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/database.js';
import { computeQuote, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { checkVolumeLimits } from './limits.js';
import type { QuoteSeal } from './seal.js';
import type { VolumeCache } from './volume-cache.js';

export class QuoteService {
  constructor(
    private readonly db: Queryable,
    private readonly engine: QuoteEngineContext,
    private readonly seal: QuoteSeal,
    private readonly clock: Clock,
    private readonly volumes: VolumeCache,
  ) {}

  async issue(request: QuoteRequest): Promise<GatewayQuoteV4> {
    const { route, quote, config } = computeQuote(request, this.engine);
    if (config.perAccountLimit !== undefined || config.globalLimit !== undefined) {
      await checkVolumeLimits(
        this.db,
        this.engine.catalogue,
        config,
        { amount: BigInt(request.amount), account: request.sender ?? request.refundAddress, nowMs: this.clock.now() },
        this.volumes,
      );
    }
    const exp = this.clock.now() + this.engine.config.quoteTtlSeconds * 1000;
    return { [route]: this.seal.seal(quote, { id: randomUUID(), route, exp }) } as GatewayQuoteV4;
  }
}
