import { describe, expect, it } from 'vitest';
import type { TokenConfig } from '../src/config/config.js';
import type { QuoteRequest } from '../src/quote/engine.js';
import { type ComputedQuote, QuoteMemo } from '../src/quote/memo.js';
import { ConfiguredPrices, type PriceSource } from '../src/quote/prices.js';
import { onrampParams, testServerPerSuite } from './helpers.js';

describe('QuoteMemo', () => {
  const request: QuoteRequest = onrampParams();
  const computing = () => {
    let computed = 0;
    return {
      count: () => computed,
      compute: (): ComputedQuote => {
        computed++;
        return { route: 'onramp', config: {} as ComputedQuote['config'], form: `form ${computed}`, jsonHead: `head ${computed}` };
      },
    };
  };

  it('keeps a quote the second time its parameters come, and answers with it after that', () => {
    const memo = new QuoteMemo(10, () => 0);
    const engine = computing();
    const answers = [1, 2, 3, 4].map(() => memo.quote(request, engine.compute).jsonHead);
    expect(answers).toEqual(['head 1', 'head 2', 'head 2', 'head 2']);
    expect(engine.count()).toBe(2);
  });

  it('computes again when any parameter differs, an absent one included', () => {
    const memo = new QuoteMemo(100, () => 0);
    const engine = computing();
    const variants: QuoteRequest[] = [
      request,
      { ...request, amount: '1000001' },
      { ...request, sender: '-' },
      { ...request, sender: '' },
      // Values that would read alike if the key only joined them.
      { ...request, slippage: '1', affiliates: undefined },
      { ...request, slippage: undefined, affiliates: '1' },
    ];
    for (const variant of variants) {
      memo.quote(variant, engine.compute);
      memo.quote(variant, engine.compute);
    }
    expect(engine.count()).toBe(variants.length * 2);
    for (const variant of variants) memo.quote(variant, engine.compute);
    expect(engine.count()).toBe(variants.length * 2);
  });

  it('forgets every quote when the price source moves to another revision', () => {
    let revision = 0;
    const memo = new QuoteMemo(10, () => revision);
    const engine = computing();
    memo.quote(request, engine.compute);
    memo.quote(request, engine.compute);
    revision = 1;
    expect(memo.quote(request, engine.compute).jsonHead).toBe('head 3');
  });

  it('keeps at most its capacity, the oldest leaving first', () => {
    const memo = new QuoteMemo(2, () => 0);
    const engine = computing();
    const amounts = ['1000001', '1000002', '1000003'];
    for (const amount of amounts) for (const _ of [1, 2]) memo.quote({ ...request, amount }, engine.compute);
    expect(engine.count()).toBe(6);
    memo.quote({ ...request, amount: '1000003' }, engine.compute);
    expect(engine.count()).toBe(6);
    memo.quote({ ...request, amount: '1000001' }, engine.compute);
    expect(engine.count()).toBe(7);
  });
});

/** Configured prices that a test can move, as a live feed would. */
class MovablePrices implements PriceSource {
  private readonly configured = new ConfiguredPrices();
  private factor = 1n;
  private moves = 0;

  usdPrice(token: TokenConfig): bigint | undefined {
    const price = this.configured.usdPrice(token);
    return price === undefined ? undefined : price * this.factor;
  }

  revision(): number {
    return this.moves;
  }

  doubleEveryPrice(): void {
    this.factor *= 2n;
    this.moves++;
  }
}

describe('get-quote issues a quote asked for again from the memo', () => {
  const prices = new MovablePrices();
  const { api } = testServerPerSuite({ adapters: { prices } });
  const unsealed = (quote: Record<string, unknown>) => {
    const { signedQuoteData: _, ...members } = quote;
    return members;
  };

  it('with a new id, expiry and seal each time, the same members, and an order made from it', async () => {
    const params = onrampParams({ amount: '1234567' });
    const answers = [];
    for (const _ of [1, 2, 3, 4]) answers.push((await api.quote(params)).body.onramp);
    expect(new Set(answers.map((quote) => quote.signedQuoteData)).size).toBe(4);
    const ids = answers.map((quote) => JSON.parse(Buffer.from(quote.signedQuoteData.split('.')[1], 'base64url').toString()).id);
    expect(new Set(ids).size).toBe(4);
    for (const quote of answers.slice(1)) expect(unsealed(quote)).toEqual(unsealed(answers[0]));
    const created = await api.post('/v4/create-order', { onramp: answers[3] });
    expect(created.status).toBe(201);
    expect((await api.post('/v4/create-order', { onramp: answers[2] })).status).toBe(201);
  });

  it('and computes it again once prices move', async () => {
    const params = onrampParams({ amount: '2345678' });
    const before = [];
    for (const _ of [1, 2, 3]) before.push((await api.quote(params)).body.onramp);
    prices.doubleEveryPrice();
    const after = (await api.quote(params)).body.onramp;
    expect(after.inputAmount.usd).not.toBe(before[2].inputAmount.usd);
    expect(Number(after.inputAmount.usd)).toBeCloseTo(Number(before[2].inputAmount.usd) * 2, 1);
    expect((await api.post('/v4/create-order', { onramp: after })).status).toBe(201);
  });
});
