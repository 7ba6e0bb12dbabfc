/**
 * The quote memo (src/quote/memo.ts): quotes kept by every parameter while prices stay at one
 * revision, and get-quote answering from it.
 */
import { describe, expect, it } from 'vitest';
import type { TokenConfig } from '../src/config/config.js';
import type { QuoteRequest } from '../src/quote/engine.js';
import { type ComputedQuote, QuoteMemo } from '../src/quote/memo.js';
import { ConfiguredPrices, type PriceSource } from '../src/quote/prices.js';
import {
  affiliate,
  btcUser,
  databaseOf,
  evmUser,
  offrampParams,
  onrampParams,
  senderAddress,
  testServer,
  testServerPerSuite,
  tokenSwapParams,
  tronOfframpParams,
} from './helpers.js';

/** Every parameter given, so that each can be changed alone. */
const request: Required<QuoteRequest> = {
  ...onrampParams({ sender: senderAddress, slippage: '300', affiliates: `${affiliate}:25` }),
} as Required<QuoteRequest>;

/** A stand-in for the engine: counts its quotes, each naming its number. */
const computing = () => {
  let made = 0;
  return {
    count: () => made,
    compute: (): ComputedQuote => ({ route: 'onramp', config: {} as ComputedQuote['config'], quote: { made: ++made }, formDigest: '' }),
  };
};

describe('QuoteMemo', () => {
  it('keeps a quote by every parameter from its second request: asked again, it is not computed again', () => {
    const memo = new QuoteMemo(100, () => 0);
    const engine = computing();
    memo.quote(request, engine.compute);
    const second = memo.quote({ ...request }, engine.compute);
    expect(memo.quote({ ...request }, engine.compute)).toBe(second);
    expect(engine.count()).toBe(2);
  });

  it('computes again when any parameter differs, an absent one included', () => {
    const memo = new QuoteMemo(100, () => 0);
    const engine = computing();
    memo.quote(request, engine.compute);
    memo.quote(request, engine.compute);
    for (const name of Object.keys(request) as Array<keyof QuoteRequest>) {
      memo.quote({ ...request, [name]: `${request[name]}0` }, engine.compute);
      const { [name]: _absent, ...without } = request;
      memo.quote(without as QuoteRequest, engine.compute);
    }
    expect(engine.count()).toBe(2 + 2 * Object.keys(request).length);
    memo.quote(request, engine.compute);
    expect(engine.count()).toBe(2 + 2 * Object.keys(request).length);
    // A value that moves to the next parameter is another key (values are prefixed by their length).
    memo.quote({ ...request, srcChain: `${request.srcChain}${request.dstChain}`, dstChain: '' }, engine.compute);
    expect(engine.count()).toBe(3 + 2 * Object.keys(request).length);
  });

  it('forgets every quote when the price source moves to another revision', () => {
    let revision = 0;
    const memo = new QuoteMemo(100, () => revision);
    const engine = computing();
    memo.quote(request, engine.compute);
    memo.quote(request, engine.compute);
    revision++;
    memo.quote(request, engine.compute);
    memo.quote(request, engine.compute);
    memo.quote(request, engine.compute);
    expect(engine.count()).toBe(4);
  });

  it('keeps at most its capacity, the least recently asked leaving first', () => {
    const memo = new QuoteMemo(2, () => 0);
    const engine = computing();
    const asked = (amount: string) => memo.quote({ ...request, amount }, engine.compute);
    const kept = (amount: string) => {
      asked(amount);
      asked(amount);
    };
    kept('1');
    kept('2');
    asked('1');
    kept('3');
    expect(engine.count()).toBe(6);
    asked('1');
    expect(engine.count()).toBe(6);
    asked('2');
    expect(engine.count()).toBe(7);
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

describe('get-quote answers parameters asked for again from the memo', () => {
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

  it('from the third request on, without computing it again, with a new id and seal each time, as JSON.stringify writes it', async () => {
    const params = onrampParams({ amount: '1234567' });
    await askTimes(params, 2);
    const readsBefore = prices.reads;
    // The quote is kept from the second request: the third, fourth and fifth are it, sealed anew.
    const texts = await askTimes(params, 3);
    expect(prices.reads).toBe(readsBefore);
    const [first, second, third] = texts.map((text) => JSON.parse(text).onramp);
    for (const text of texts) expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect(new Set([first, second, third].map((quote) => quote.signedQuoteData)).size).toBe(3);
    expect(new Set([first, second, third].map(quoteId)).size).toBe(3);
    expect(unsealed(second)).toEqual(unsealed(first));
    expect(unsealed(third)).toEqual(unsealed(first));
    for (const quote of [third, first]) expect((await api.post('/v4/create-order', { onramp: quote })).status).toBe(201);
  });

  it('computes any other parameters afresh: the quote of another amount or other parties is the one a server that never saw them issues', async () => {
    const params = onrampParams({ amount: '1234567', affiliates: `${affiliate}:25`, sender: senderAddress });
    await askTimes(params, 2);
    const variants = [
      { amount: '2345678' },
      { amount: '1234568', recipient: affiliate, refundAddress: btcUser },
      { recipient: affiliate.toLowerCase() },
    ];
    const asked = [];
    for (const variant of variants) asked.push(JSON.parse((await askTimes({ ...params, ...variant }, 1))[0]!).onramp);
    expect(asked[1]).toMatchObject({ recipient: affiliate, sender: senderAddress, refundAddress: btcUser });
    for (const [index, variant] of variants.entries()) {
      // Its memo is its own and empty; the store is the first server's, so that both quote from the same volumes.
      const fresh = await testServer({ database: databaseOf(server()), adapters: { prices } });
      try {
        const answer = await fetch(`${fresh.url}/v4/get-quote?${new URLSearchParams({ ...params, ...variant })}`);
        expect(unsealed(asked[index]), JSON.stringify(variant)).toEqual(unsealed((await answer.json()).onramp));
      } finally {
        await fresh.close();
      }
      const created = await api.post('/v4/create-order', { onramp: asked[index] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });

  it('and create-order takes kept quotes for every route, sealed or quoted again from their fields, on V4 and V3', async () => {
    const kept = async <Route extends string>(route: Route, params: Record<string, string>) => {
      const [, , third] = await askTimes(params, 3);
      return JSON.parse(third!)[route];
    };
    for (const [route, params] of [
      ['offramp', offrampParams({ amount: '5000001' })],
      ['tokenSwap', tokenSwapParams({ amount: '250000001' })],
    ] as const) {
      const { signedQuoteData: _, ...withoutSeal } = await kept(route, params);
      expect((await api.post('/v4/create-order', { [route]: withoutSeal })).status, route).toBe(201);
    }
    const offramp = await kept('offramp', offrampParams({ amount: '5000003', refundAddress: evmUser }));
    expect(offramp.ownerAddress).toBe(evmUser);
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
