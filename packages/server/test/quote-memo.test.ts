import { describe, expect, it } from 'vitest';
import type { TokenConfig } from '../src/config/config.js';
import type { QuoteRequest } from '../src/quote/engine.js';
import { type ComputedQuote, QuoteMemo } from '../src/quote/memo.js';
import { ConfiguredPrices, type PriceSource } from '../src/quote/prices.js';
import {
  affiliate,
  evmUser,
  offrampParams,
  onrampParams,
  senderAddress,
  testServerPerSuite,
  tokenSwapParams,
  tronOfframpParams,
} from './helpers.js';

/** Every parameter given, so that each can be changed alone. */
const request: Required<QuoteRequest> = {
  ...onrampParams({ sender: senderAddress, slippage: '300', affiliates: `${affiliate}:25` }),
} as Required<QuoteRequest>;

/** A stand-in for the engine: counts its calls, and answers a text of `size` characters naming the call. */
const computing = (size = 10) => {
  let computed = 0;
  return {
    count: () => computed,
    compute: (): ComputedQuote => {
      computed++;
      return { route: 'onramp', config: {} as ComputedQuote['config'], form: 'f', jsonHead: `head ${computed}`.padEnd(size, '.') };
    },
  };
};

const roomy = { quoteBytes: 1_000_000, askedOnce: 1000 };
const keyLength = (params: QuoteRequest) =>
  Object.values(params).reduce((length, value) => length + (value === undefined ? 1 : `${value.length}:${value}`.length), 0);

describe('QuoteMemo', () => {
  it('keeps a quote the second time its parameters come, and answers with it after that', () => {
    const memo = new QuoteMemo(roomy, () => 0);
    const engine = computing();
    const answers = [1, 2, 3, 4].map(() => memo.quote(request, engine.compute).jsonHead.trim());
    expect(answers.map((text) => text.replace(/\.+$/, ''))).toEqual(['head 1', 'head 2', 'head 2', 'head 2']);
    expect(engine.count()).toBe(2);
  });

  it('computes again when any one parameter differs, an absent one included', () => {
    const memo = new QuoteMemo(roomy, () => 0);
    const engine = computing();
    const variants: QuoteRequest[] = [request];
    for (const name of Object.keys(request) as Array<keyof QuoteRequest>) {
      variants.push({ ...request, [name]: `${request[name]}0` }, { ...request, [name]: undefined });
    }
    // Values that would read alike if the key only joined them.
    variants.push({ ...request, slippage: '1', affiliates: undefined }, { ...request, slippage: undefined, affiliates: '1' });
    variants.push({ ...request, sender: '-' }, { ...request, sender: '' });
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
    const memo = new QuoteMemo(roomy, () => revision);
    const engine = computing();
    memo.quote(request, engine.compute);
    memo.quote(request, engine.compute);
    revision = 1;
    memo.quote(request, engine.compute);
    expect(engine.count()).toBe(3);
  });

  it('keeps quotes within its budget of bytes, the least recently asked leaving first, and none larger than the budget', () => {
    const entryBytes = keyLength(request) + 100 + 1;
    const memo = new QuoteMemo({ quoteBytes: entryBytes * 2, askedOnce: 1000 }, () => 0);
    const engine = computing(100);
    const ask = (amount: string) => memo.quote({ ...request, amount }, engine.compute);
    for (const amount of ['1000001', '1000002']) for (const _ of [1, 2]) ask(amount);
    ask('1000001');
    expect(engine.count()).toBe(4);
    // A third quote kept pushes out 1000002, asked for less recently than 1000001.
    for (const _ of [1, 2]) ask('1000003');
    expect(engine.count()).toBe(6);
    ask('1000001');
    ask('1000003');
    expect(engine.count()).toBe(6);
    ask('1000002');
    expect(engine.count()).toBe(7);

    const small = new QuoteMemo({ quoteBytes: entryBytes - 1, askedOnce: 1000 }, () => 0);
    const other = computing(100);
    for (const _ of [1, 2, 3]) small.quote(request, other.compute);
    expect(other.count()).toBe(3);
  });

  it('remembers a bounded number of parameters asked for once, the least recently asked forgotten first', () => {
    const memo = new QuoteMemo({ quoteBytes: 1_000_000, askedOnce: 2 }, () => 0);
    const engine = computing();
    for (const amount of ['1000001', '1000002', '1000003']) memo.quote({ ...request, amount }, engine.compute);
    // 1000001 was forgotten: asked again, it counts as a first time, and is kept only on the next.
    memo.quote({ ...request, amount: '1000001' }, engine.compute);
    memo.quote({ ...request, amount: '1000001' }, engine.compute);
    memo.quote({ ...request, amount: '1000001' }, engine.compute);
    expect(engine.count()).toBe(5);
  });
});

/** Configured prices that a test can move, as a live feed would, and that count how often they are read. */
class MovablePrices implements PriceSource {
  private readonly configured = new ConfiguredPrices();
  private factor = 1n;
  private moves = 0;
  reads = 0;

  usdPrice(token: TokenConfig): bigint | undefined {
    this.reads++;
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
  const { api, server } = testServerPerSuite({ adapters: { prices } });
  const askTimes = async (params: Record<string, string>, times: number) => {
    const texts: string[] = [];
    for (let i = 0; i < times; i++) {
      const response = await fetch(`${server().url}/v4/get-quote?${new URLSearchParams(params)}`);
      expect(response.status).toBe(200);
      texts.push(await response.text());
    }
    return texts;
  };
  const unsealed = (quote: Record<string, unknown>) => {
    const { signedQuoteData: _, ...members } = quote;
    return members;
  };
  const quoteId = (quote: { signedQuoteData: string }) =>
    JSON.parse(Buffer.from(quote.signedQuoteData.split('.')[1]!, 'base64url').toString()).id as string;

  it('from the third request on, without computing it, with a new id and seal each time, as JSON.stringify writes it', async () => {
    const params = onrampParams({ amount: '1234567' });
    await askTimes(params, 2);
    const readsBefore = prices.reads;
    const texts = await askTimes(params, 2);
    expect(prices.reads).toBe(readsBefore);
    const [first, second] = texts.map((text) => JSON.parse(text).onramp);
    for (const text of texts) expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect(first.signedQuoteData).not.toBe(second.signedQuoteData);
    expect(quoteId(first)).not.toBe(quoteId(second));
    expect(unsealed(second)).toEqual(unsealed(first));
    expect((await api.post('/v4/create-order', { onramp: second })).status).toBe(201);
    expect((await api.post('/v4/create-order', { onramp: first })).status).toBe(201);
  });

  it('and create-order takes them for every route, sealed or quoted again from their fields, on V4 and V3', async () => {
    for (const [route, params] of [
      ['offramp', offrampParams({ amount: '5000001' })],
      ['tokenSwap', tokenSwapParams({ amount: '250000001' })],
    ] as const) {
      const [, , issuedAgain] = (await askTimes(params, 3)).map((text) => JSON.parse(text)[route]);
      const { signedQuoteData: _, ...withoutSeal } = issuedAgain;
      expect((await api.post('/v4/create-order', { [route]: withoutSeal })).status, route).toBe(201);
    }
    const [, , offramp] = (await askTimes(offrampParams({ amount: '5000002', refundAddress: evmUser }), 3)).map(
      (text) => JSON.parse(text).offramp,
    );
    expect((await api.post('/v3/create-order', { offramp })).status).toBe(201);
  });

  it("and still checks the route's volume limits on every request", async () => {
    const params = tronOfframpParams({ amount: '60000000000', refundAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' });
    const [, , kept] = (await askTimes(params, 3)).map((text) => JSON.parse(text));
    expect((await api.post('/v4/create-order', kept)).status).toBe(201);
    expect(await api.quote(params)).toMatchObject({ status: 400, body: { code: 'PER_ACCOUNT_LIMIT_EXCEEDED' } });
  });

  it('and computes it again once prices move', async () => {
    const params = onrampParams({ amount: '2345678' });
    const [, , before] = (await askTimes(params, 3)).map((text) => JSON.parse(text).onramp);
    prices.doubleEveryPrice();
    const after = (await api.quote(params)).body.onramp;
    expect(Number(after.inputAmount.usd)).toBeCloseTo(Number(before.inputAmount.usd) * 2, 1);
    expect((await api.post('/v4/create-order', { onramp: after })).status).toBe(201);
  });
});
