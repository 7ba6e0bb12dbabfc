/**
 * get-quote: computes the quote (or finds it computed, quote/memo.ts) and seals it (quote/seal.ts);
 * nothing is stored. Only a route with volume limits reads the store, to answer an exceeded limit
 * early, through a cache of the sums (volumes/cache.ts); create-order enforces the limits exactly.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayQuoteV4 } from '@swap-gateway/types';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/database.js';
import type { VolumeCache } from '../volumes/cache.js';
import { checkVolumeLimits } from '../volumes/limits.js';
import { computeQuote, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import type { ComputedQuote, QuoteMemo } from './memo.js';
import { type QuoteSeal, sealPayload } from './seal.js';

export class QuoteService {
  constructor(
    private readonly db: Queryable,
    private readonly engine: QuoteEngineContext,
    private readonly seal: QuoteSeal,
    private readonly clock: Clock,
    private readonly volumes: VolumeCache,
    private readonly memo: QuoteMemo,
  ) {}

  /** The sealed quote as get-quote answers it. */
  async issue(request: QuoteRequest): Promise<GatewayQuoteV4> {
    const { route, config, quote, formDigest } = this.memo.quote(request, () => this.compute(request));
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
    const signedQuoteData = this.seal.signature(sealPayload(route, quote, randomUUID(), exp), formDigest);
    // Object.assign into a new object, not `{ ...quote, signedQuoteData }`: see tokenAmount in quote/engine.ts.
    return { [route]: Object.assign({}, quote, { signedQuoteData }) } as unknown as GatewayQuoteV4;
  }

  private compute(request: QuoteRequest): ComputedQuote {
    const { route, config, quote } = computeQuote(request, this.engine);
    return { route, config, quote, formDigest: this.seal.formDigest(route, quote) };
  }
}
