/**
 * get-quote: plans the quote (or finds it planned, quote/memo.ts), writes it for the amount asked
 * for from the plan's template (quote/template.ts) unless it is the plan's last quote, and seals it
 * (quote/seal.ts). Nothing is stored: the seal carries the quote's id and expiry, and create-order
 * verifies it. Only a route with volume limits reads the store, to answer an exceeded limit early,
 * and then through a cache of the sums (volumes/cache.ts); create-order enforces the limits exactly.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/database.js';
import { planQuote, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { checkVolumeLimits } from '../volumes/limits.js';
import { IssuablePlan, type QuoteMemo } from './memo.js';
import type { QuoteSeal } from './seal.js';
import { QuoteTemplate } from './template.js';
import type { VolumeCache } from '../volumes/cache.js';

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
    const plan = this.memo.plan(request, () => this.plan(request));
    const { route, config } = plan;
    const quote = plan.quote(request);
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
    const signedQuoteData = this.seal.signature({ id: randomUUID(), route, exp }, quote.form);
    // The seal joins the quote's members before its two closing braces; it is base64url and dots, nothing in it needs escaping.
    return `${quote.json.slice(0, -2)},"signedQuoteData":"${signedQuoteData}"}}`;
  }

  private plan(request: QuoteRequest): IssuablePlan {
    const { route, config, shape, figures } = planQuote(request, this.engine);
    return new IssuablePlan(route, config, figures, new QuoteTemplate(route, shape, (quote) => this.seal.form(route, quote)));
  }
}
