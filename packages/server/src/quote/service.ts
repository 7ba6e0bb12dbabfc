/**
 * get-quote: computes the quote, seals it (quote/seal.ts), and stores it so that create-order can
 * tell an issued, unused quote from one it never issued.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayQuoteV4 } from '@swap-gateway/types';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/database.js';
import { computeQuote, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { checkVolumeLimits } from './limits.js';
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
    await checkVolumeLimits(this.db, this.engine.catalogue, config, { amount: BigInt(request.amount), account: request.sender ?? request.refundAddress, nowMs: this.clock.now() });
    const id = randomUUID();
    const exp = this.clock.now() + this.engine.config.quoteTtlSeconds * 1000;
    const sealed = this.seal.seal(quote, { id, route, exp });
    await this.db.query('INSERT INTO quotes (id, route, body, expires_at) VALUES ($1, $2, $3::text::jsonb, $4)', [id, route, JSON.stringify(sealed), new Date(exp).toISOString()]);
    return { [route]: sealed } as GatewayQuoteV4;
  }
}
