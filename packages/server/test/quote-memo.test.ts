import { describe, expect, it } from 'vitest';
import type { TokenConfig } from '../src/config/config.js';
import type { OpenParameters, QuoteRequest } from '../src/quote/engine.js';
import { IssuablePlan, QuoteMemo } from '../src/quote/memo.js';
import { ConfiguredPrices, type PriceSource } from '../src/quote/prices.js';
import { Figure, QuoteTemplate } from '../src/quote/template.js';
import {
  affiliate,
  btcUser,
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

/** A stand-in for the engine: counts its plans, each of about `size` bytes, naming the plan. */
const planning = (size = 100) => {
  let made = 0;
  return {
    count: () => made,
    make: (): IssuablePlan => {
      made++;
      // A plan counts its template twice (the template, and the last quote it wrote).
      const shape = { plan: String(made).padEnd((size / 2 - 'plan'.length - 16) / 2, '.') };
      return new IssuablePlan('onramp', {} as IssuablePlan['config'], () => ({}), new QuoteTemplate('onramp', shape, () => ''));
    },
  };
};
const planNumber = (plan: IssuablePlan) =>
  (JSON.parse(plan.quote(request).json) as { onramp: { plan: string } }).onramp.plan.replace(/\.+$/, '');

const roomy = { planBytes: 1_000_000, askedOnce: 1000 };
const openNames = ['amount', 'recipient', 'sender', 'refundAddress'];
/** The memo's key: whether a sender and a refund address are given, and every other parameter but the open ones. */
const keyLength = (params: QuoteRequest) =>
  2 +
  Object.entries(params)
    .filter(([name]) => !openNames.includes(name))
    .reduce((length, [, value]) => length + (value === undefined ? 1 : `${value.length}:${value}`.length), 0);

describe('QuoteMemo', () => {
  it('keeps a plan the second time its parameters but the open ones come, and answers with it after that, whatever the open ones', () => {
    const memo = new QuoteMemo(roomy, () => 0);
    const engine = planning();
    const other = (index: number) => `0x${String(index).padStart(40, '0')}`;
    const answers = ['1000001', '1000002', '1000003', '1000004', '1000005'].map((amount, index) =>
      planNumber(
        memo.plan(
          { ...request, amount, ...(index > 2 ? { recipient: other(index), sender: other(index), refundAddress: other(index) } : {}) },
          engine.make,
        ),
      ),
    );
    expect(answers).toEqual(['1', '2', '2', '2', '2']);
    expect(engine.count()).toBe(2);
  });

  it('plans again when any other parameter differs, an absent one included, and when a sender or refund address is given or not', () => {
    const memo = new QuoteMemo(roomy, () => 0);
    const engine = planning();
    const variants: QuoteRequest[] = [request, { ...request, sender: undefined }, { ...request, refundAddress: undefined }];
    for (const name of Object.keys(request) as Array<keyof QuoteRequest>) {
      if (!openNames.includes(name)) variants.push({ ...request, [name]: `${request[name]}0` }, { ...request, [name]: undefined });
    }
    // Values that would read alike if the key only joined them.
    variants.push({ ...request, slippage: '1', affiliates: undefined }, { ...request, slippage: undefined, affiliates: '1' });
    variants.push({ ...request, sender: undefined, refundAddress: undefined });
    for (const variant of variants) {
      memo.plan(variant, engine.make);
      memo.plan(variant, engine.make);
    }
    expect(engine.count()).toBe(variants.length * 2);
    for (const variant of variants) memo.plan({ ...variant, amount: '7777777', recipient: `${request.recipient}0` }, engine.make);
    expect(engine.count()).toBe(variants.length * 2);
  });

  it('forgets every plan when the price source moves to another revision', () => {
    let revision = 0;
    const memo = new QuoteMemo(roomy, () => revision);
    const engine = planning();
    memo.plan(request, engine.make);
    memo.plan(request, engine.make);
    revision = 1;
    memo.plan(request, engine.make);
    expect(engine.count()).toBe(3);
  });

  it("keeps plans within its budget of bytes (their templates' and keys'), the least recently asked leaving first, and none larger than the budget", () => {
    const entryBytes = keyLength(request) + planning(100).make().size;
    const memo = new QuoteMemo({ planBytes: entryBytes * 2, askedOnce: 1000 }, () => 0);
    const engine = planning(100);
    const ask = (slippage: string) => memo.plan({ ...request, slippage }, engine.make);
    const [first, second, third] = ['301', '302', '303'];
    for (const slippage of [first!, second!]) for (const _ of [1, 2]) ask(slippage);
    ask(first!);
    expect(engine.count()).toBe(4);
    // A third plan kept pushes out the second, asked for less recently than the first.
    for (const _ of [1, 2]) ask(third!);
    expect(engine.count()).toBe(6);
    ask(first!);
    ask(third!);
    expect(engine.count()).toBe(6);
    ask(second!);
    expect(engine.count()).toBe(7);

    const small = new QuoteMemo({ planBytes: entryBytes - 1, askedOnce: 1000 }, () => 0);
    const other = planning(100);
    for (const _ of [1, 2, 3]) small.plan(request, other.make);
    expect(other.count()).toBe(3);
  });

  it('remembers a bounded number of parameters asked for once, the least recently asked forgotten first', () => {
    const memo = new QuoteMemo({ planBytes: 1_000_000, askedOnce: 2 }, () => 0);
    const engine = planning();
    for (const slippage of ['101', '102', '103']) memo.plan({ ...request, slippage }, engine.make);
    // 101 was forgotten: asked again, it counts as a first time, and is kept only on the next.
    for (const _ of [1, 2, 3]) memo.plan({ ...request, slippage: '101' }, engine.make);
    expect(engine.count()).toBe(5);
  });
});

describe('IssuablePlan', () => {
  it('answers the open parameters of its last quote again with that quote, and figures any others', () => {
    const asked: string[] = [];
    const shape = { inputAmount: { amount: new Figure((figures: OpenParameters) => figures.amount) } };
    // A sealed form of the one member, as the seal writes a string.
    const sealedForm = (quote: object) => {
      const { amount } = (quote as typeof shape & { inputAmount: { amount: string } }).inputAmount;
      return `s${amount.length}:${amount}`;
    };
    const figures = (open: OpenParameters): OpenParameters => {
      asked.push(open.amount);
      return open;
    };
    const plan = new IssuablePlan('onramp', {} as IssuablePlan['config'], figures, new QuoteTemplate('onramp', shape, sealedForm));
    const bytes: boolean[] = [];
    const quotes = ['100', '100', '200', '200', '100'].map((amount) => {
      const quote = plan.quote({ amount, recipient: request.recipient });
      bytes.push(Buffer.isBuffer(quote.form));
      return { ...quote };
    });
    expect(quotes.map((quote) => JSON.parse(quote.json).onramp.inputAmount.amount)).toEqual(['100', '100', '200', '200', '100']);
    expect(quotes.map((quote) => quote.form.toString())).toEqual(['s3:100', 's3:100', 's3:200', 's3:200', 's3:100']);
    // The sealed form is made bytes when the quote is asked for again.
    expect(bytes).toEqual([false, true, false, true, false]);
    expect(asked).toEqual(['100', '200', '100']);
    // The same amount for another party is another quote.
    plan.quote({ amount: '100', recipient: `${request.recipient}0` });
    plan.quote({ amount: '100', recipient: `${request.recipient}0`, sender: request.sender });
    plan.quote({ amount: '100', recipient: `${request.recipient}0`, sender: request.sender, refundAddress: request.refundAddress });
    plan.quote({ amount: '100', recipient: `${request.recipient}0`, sender: request.sender, refundAddress: request.refundAddress });
    expect(asked).toEqual(['100', '200', '100', '100', '100', '100']);
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

describe('get-quote issues quotes of parameters asked for again from their plan', () => {
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

  it('from the third request on, without planning it again, with a new id and seal each time, as JSON.stringify writes it', async () => {
    const params = onrampParams({ amount: '1234567' });
    await askTimes(params, 2);
    const readsBefore = prices.reads;
    // The plan is kept from the second request: the third, fourth and fifth are its last quote, sealed anew.
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

  it('for any open parameters: the quote of another amount or other parties is the one a server that never saw the parameters issues', async () => {
    const params = onrampParams({ amount: '1234567', affiliates: `${affiliate}:25`, sender: senderAddress });
    await askTimes(params, 3);
    const readsBefore = prices.reads;
    const variants = [
      { amount: '2345678' },
      { amount: '1234568', recipient: affiliate, refundAddress: btcUser },
      { recipient: affiliate.toLowerCase() },
    ];
    const planned = [];
    for (const variant of variants) planned.push(JSON.parse((await askTimes({ ...params, ...variant }, 1))[0]!).onramp);
    expect(prices.reads).toBe(readsBefore);
    expect(planned[1]).toMatchObject({ recipient: affiliate, sender: senderAddress, refundAddress: btcUser });
    for (const [index, variant] of variants.entries()) {
      const fresh = await testServer({ adapters: { prices } });
      try {
        const answer = await fetch(`${fresh.url}/v4/get-quote?${new URLSearchParams({ ...params, ...variant })}`);
        expect(unsealed(planned[index]), JSON.stringify(variant)).toEqual(unsealed((await answer.json()).onramp));
      } finally {
        await fresh.close();
      }
      const created = await api.post('/v4/create-order', { onramp: planned[index] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });

  it('and create-order takes them for every route, sealed or quoted again from their fields, on V4 and V3', async () => {
    // Two requests keep the plan; a third of another amount is written from its compiled template.
    const writtenFromTemplate = async <Route extends string>(route: Route, params: Record<string, string>) => {
      await askTimes(params, 2);
      const [text] = await askTimes({ ...params, amount: String(BigInt(params.amount!) + 1n) }, 1);
      return JSON.parse(text!)[route];
    };
    for (const [route, params] of [
      ['offramp', offrampParams({ amount: '5000001' })],
      ['tokenSwap', tokenSwapParams({ amount: '250000001' })],
    ] as const) {
      const { signedQuoteData: _, ...withoutSeal } = await writtenFromTemplate(route, params);
      expect((await api.post('/v4/create-order', { [route]: withoutSeal })).status, route).toBe(201);
    }
    const offramp = await writtenFromTemplate('offramp', offrampParams({ amount: '5000003', refundAddress: evmUser }));
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
