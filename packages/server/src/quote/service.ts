/**
 * get-quote: computes the quote (or finds it computed, quote/memo.ts) and seals it (quote/seal.ts).
 * Nothing is stored: the seal carries the quote's id and expiry, and create-order verifies it. Only
 * a route with volume limits reads the store, to answer an exceeded limit early, and then through a
 * cache of the sums (quote/volume-cache.ts); create-order enforces the limits exactly.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/database.js';
import { computeQuote, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { checkVolumeLimits } from './limits.js';
import type { ComputedQuote, QuoteMemo } from './memo.js';
import type { QuoteSeal } from './seal.js';
import type { VolumeCache } from './volume-cache.js';

export class QuoteService {
  constructor(
    private readonly db: Queryable,
    private readonly engine: QuoteEngineContext,
    private readonly seal: QuoteSeal,
    private readonly clock: Clock,
    private readonly volumes: VolumeCache,
    private readonly memo: QuoteMemo,
  ) {}

  /** The sealed quote as get-quote answers it (a GatewayQuoteV4), as JSON text. */
  async issue(request: QuoteRequest): Promise<string> {
    const computed = this.memo.quote(request, () => this.compute(request));
    const { route, config } = computed;
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
    const signedQuoteData = this.seal.signature({ id: randomUUID(), route, exp }, computed.form);
    // The seal is base64url and dots: nothing in it needs escaping.
    return `${computed.jsonHead}${signedQuoteData}"}}`;
  }

  private compute(request: QuoteRequest): ComputedQuote {
    const { route, config, quote } = computeQuote(request, this.engine);
    const json = JSON.stringify({ [route]: quote });
    return {
      route,
      config,
      form: this.seal.form(route, quote),
      // Up to the two closing braces: `signedQuoteData` is the quote's last member.
      jsonHead: `${json.slice(0, -2)},"signedQuoteData":"`,
    };
  }
}
