/** get-quote: parameters checked for their chain, fees, slippage, limits, affiliates, USD values. */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sandboxConfigFile, type GatewayConfig } from '../src/index.js';
import type { RouteKind } from '../src/config/config.js';
import { bundledDocument } from '../src/http/document.js';
import { QuoteSeal, sealPayload } from '../src/quote/seal.js';
import { sealedFields } from '../src/quote/sealed-fields.js';
import {
  affiliate,
  btc,
  client,
  databaseOf,
  evmUser,
  offrampParams,
  onrampParams,
  solanaSwapParams,
  testServer,
  testServerPerSuite,
  tokenSwapParams,
  tronOfframpParams,
  usdcEthereum,
  wethBase,
  documentedExample,
} from './helpers.js';

/**
 * The secret the document's sealed quotes were sealed with (the sandbox makes a secret of its own):
 * this suite's server has it, so that the examples' seals are ones it made.
 */
const examplesSigningSecret = 'the API document examples';

// The servers of other configurations in the tests below share this one's store: they only quote,
// which reads what no test here writes.
const { api, server } = testServerPerSuite({ config: { signingSecret: examplesSigningSecret } });

const expectError = async (params: Record<string, string>, code: string, details?: unknown) => {
  const answer = await api.quote(params);
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.code).toBe(code);
  expect(typeof answer.body.error).toBe('string');
  if (details !== undefined) expect(answer.body.details).toEqual(details);
  return answer.body;
};

/** A refusal the document shows word for word: get-quote's 400 example `name`. */
const expectDocumented = async (params: Record<string, string>, name: string) => {
  const answer = await api.quote(params);
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body).toEqual(documentedExample('getQuoteV4', '400', name));
};

describe('onramp fees', () => {
  it('computes the fee breakdown, output after fees and USD values from the configuration', async () => {
    const { status, body } = await api.quote(onrampParams({ affiliates: `${affiliate}:25` }));
    expect(status).toBe(200);
    const quote = body.onramp;
    // 0.01 BTC at equal prices = 1000000 units of WBTC; 20 + 10 + 25 bps, execution 1200, messaging 300.
    expect(quote.feeBreakdown.solverFee.amount).toBe('2000');
    expect(quote.feeBreakdown.protocolFee.amount).toBe('1000');
    expect(quote.feeBreakdown.affiliateFee.amount).toBe('2500');
    expect(quote.feeBreakdown.executionFee.amount).toBe('1200');
    expect(quote.feeBreakdown.messagingFee.amount).toBe('300');
    expect(quote.fees.amount).toBe('7000');
    expect(quote.outputAmount).toEqual({
      address: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
      amount: '993000',
      chain: 'bob',
      usd: '963.21',
    });
    expect(quote.inputAmount.usd).toBe('970.00');
    expect(quote.affiliates).toEqual([{ address: affiliate, fee: expect.objectContaining({ amount: '2500' }) }]);
    expect(quote.affiliateAddress).toBe(affiliate);
    expect(quote.slippage).toBe('300');
    // (963.21 + 1.16 execution fee - 970.00) / 970.00: the impact leaves the execution fee out.
    expect(quote.priceImpact).toBe('-0.0058');
    expect(quote.signedQuoteData).toMatch(/^v4\.[\w-]+\.[\w-]+$/);
  });

  it('honours an explicit slippage within the bounds and refuses one outside them', async () => {
    expect((await api.quote(onrampParams({ slippage: '150' }))).body.onramp.slippage).toBe('150');
    await expectDocumented(onrampParams({ slippage: '1' }), 'SLIPPAGE_TOO_LOW');
    await expectDocumented(onrampParams({ slippage: '5000' }), 'SLIPPAGE_TOO_HIGH');
  });

  it('applies amount limits, in the shapes the document ties to their codes', async () => {
    // INSUFFICIENT_AMOUNT { expected: the route's smallest amount, actual: the amount asked }.
    await expectDocumented(onrampParams({ amount: '5000' }), 'INSUFFICIENT_AMOUNT');
    // EXCEEDED_LIMIT { limit }: the route's largest amount.
    await expectDocumented(onrampParams({ amount: '1000000001' }), 'EXCEEDED_LIMIT');
    // QUOTE_AMOUNT_TOO_LOW { minimum, actual }: an amount the route takes whose output after fees is below its smallest.
    await expectDocumented(tronOfframpParams({ amount: '10000000' }), 'QUOTE_AMOUNT_TOO_LOW');
  });

  it('refuses an amount or an output beyond what the chains can move, on a route without a largest amount', async () => {
    // Base WETH to Ethereum USDC has no maxAmount: an ERC-20 amount is a uint256.
    await expectError(tokenSwapParams({ srcToken: wethBase, dstToken: usdcEthereum, amount: String(2n ** 256n) }), 'EXCEEDED_LIMIT', {
      limit: String(2n ** 256n - 1n),
    });
    // Solana USDC (6 decimals) to Base WETH (18) at one for one: the Solana transaction carries the
    // least output as a u64, which 10^6 USDC's output in wei (about 10^24) is beyond.
    const sandbox = JSON.parse(readFileSync(sandboxConfigFile, 'utf8')) as GatewayConfig;
    const { maxAmount: _none, ...solanaRoute } = sandbox.routes.find((route) => route.srcChain === 'solana')!;
    const wide = await testServer({
      database: databaseOf(server()),
      config: { routes: [{ ...solanaRoute, dstToken: wethBase, rate: '1' }] },
    });
    try {
      const quote = (amount: string) => client(wide.url).quote(solanaSwapParams({ dstToken: wethBase, amount }));
      const refused = await quote('1000000000000');
      // 2^64 - 1 wei is 18.4 WETH: before fees, the output of 18,446,744 of USDC's smallest units (18.4 USDC) at one for one.
      expect(refused).toMatchObject({ status: 400, body: { code: 'EXCEEDED_LIMIT', details: { limit: '18446744' } } });
      // The limit is an amount taken, whose output fits.
      const atLimit = await quote(refused.body.details.limit);
      expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
      expect(BigInt(atLimit.body.tokenSwap.outputAmount.amount)).toBeLessThanOrEqual(2n ** 64n - 1n);
    } finally {
      await wide.close();
    }
  });

  it('refuses amounts that cannot pay the fees or leave too little (routes without a minimum input)', async () => {
    const sandbox = JSON.parse(readFileSync(sandboxConfigFile, 'utf8')) as GatewayConfig;
    const lenient = await testServer({
      database: databaseOf(server()),
      config: { routes: sandbox.routes.map((route) => ({ ...route, minAmount: '1' })) },
    });
    try {
      const lenientApi = client(lenient.url);
      const expectCode = async (params: Record<string, string>, code: string, details: unknown) => {
        const answer = await lenientApi.quote(params);
        expect(answer).toMatchObject({ status: 400, body: { code, details } });
      };
      // 1000 units against 2 + 1 + 1200 execution + 300 messaging.
      await expectCode(onrampParams({ amount: '1000' }), 'UNABLE_TO_COVER_FEES', { total_fees: '1503', available_amount: '1000' });
      // 6000 - (18 + 1500) = 4482, below the route's 5000 minimum output.
      await expectCode(onrampParams({ amount: '6000' }), 'QUOTE_AMOUNT_TOO_LOW', { minimum: '5000', actual: '4482' });
      // 100 wei of WETH is worth less than one unit of USDC: `required` is the smallest amount that
      // leaves something to swap (one wei less does not), `available` the amount asked.
      const swap = (amount: string) => lenientApi.quote(tokenSwapParams({ srcToken: wethBase, dstToken: usdcEthereum, amount }));
      const short = await swap('100');
      expect(short).toMatchObject({
        status: 400,
        body: { code: 'INSUFFICIENT_SWAP_AMOUNT', details: { required: expect.stringMatching(/^[1-9][0-9]*$/), available: '100' } },
      });
      const required = BigInt(short.body.details.required);
      expect(required).toBeGreaterThan(100n);
      expect((await swap(String(required))).body.code).not.toBe('INSUFFICIENT_SWAP_AMOUNT');
      await expectCode(
        tokenSwapParams({ srcToken: wethBase, dstToken: usdcEthereum, amount: String(required - 1n) }),
        'INSUFFICIENT_SWAP_AMOUNT',
        {
          required: String(required),
          available: String(required - 1n),
        },
      );
    } finally {
      await lenient.close();
    }
  });
});

describe('volume limits', () => {
  it('counts the orders of an account over a day, and the open orders of a route', async () => {
    const { refundAddress: _none, ...anonymous } = tronOfframpParams();
    await expectDocumented({ ...anonymous, amount: '500000000001' }, 'GLOBAL_LIMIT_EXCEEDED');
    const first = await api.quote(tronOfframpParams({ amount: '60000000000' }));
    expect((await api.post('/v4/create-order', first.body)).status).toBe(201);
    expect((await api.quote(tronOfframpParams({ amount: '40000000000' }))).status).toBe(200);
    await expectDocumented(tronOfframpParams({ amount: '40000000001' }), 'PER_ACCOUNT_LIMIT_EXCEEDED');
    // Another account is not held back by the first one's volume.
    expect(
      (await api.quote(tronOfframpParams({ amount: '40000000001', refundAddress: 'TXk8rQSAvPvBBNtqSoY6nCfsXWCSSpTVQF' }))).status,
    ).toBe(200);
  });
});

describe('offramp and token swap', () => {
  it('quotes an offramp in sats with inclusion fee, fee rate, USD total and the owner', async () => {
    const { body } = await api.quote(offrampParams({ affiliates: `${affiliate}:35` }));
    const quote = body.offramp;
    expect(quote.feeBreakdown.inclusionFee.amount).toBe(String(12 * 141));
    expect(quote.feeBreakdown.fastestFeeRate).toBe('12');
    expect(quote.feeBreakdown.affiliateFee.amount).toBe('17500');
    const fees = ['solverFee', 'inclusionFee', 'protocolFee', 'affiliateFee'].reduce(
      (sum, name) => sum + BigInt(quote.feeBreakdown[name].amount),
      0n,
    );
    expect(BigInt(quote.outputAmount.amount)).toBe(5000000n - fees);
    expect(quote.slippage).toBe(100);
    expect(quote.ownerAddress).toBe(evmUser);
    expect(quote.totalFeeUsd).toMatch(/^\d+\.\d{2}$/);
  });

  it('quotes token swaps with fees in the source token, one affiliate at most', async () => {
    const { body } = await api.quote(tokenSwapParams({ affiliates: `${affiliate}:20` }));
    expect(body.tokenSwap.fees.amount).toBe(String((250000000n * 52n) / 10000n));
    expect(body.tokenSwap.affiliate).toEqual({ address: affiliate, bps: 20 });
    await expectError(tokenSwapParams({ affiliates: `${affiliate}:20,${evmUser}:10` }), 'TOO_MANY_AFFILIATES', { max: '1', actual: '2' });
    const solana = await api.quote(solanaSwapParams());
    expect(solana.status).toBe(200);
    expect(solana.body.tokenSwap).not.toHaveProperty('affiliate');
  });

  it('leaves USD values out where no price exists', async () => {
    const { status, body } = await api.quote(
      tokenSwapParams({ srcToken: wethBase, dstToken: usdcEthereum, amount: '1000000000000000000' }),
    );
    expect(status).toBe(200);
    expect(body.tokenSwap.inputAmount).not.toHaveProperty('usd');
    expect(body.tokenSwap.outputAmount.usd).toBeDefined();
    expect(body.tokenSwap).not.toHaveProperty('priceImpact');
    // 1 WETH at the route's rate of 3500 USDC, less 32 bps.
    expect(body.tokenSwap.outputAmount.amount).toBe(String((3500n * 10n ** 6n * 9968n) / 10000n));
  });
});

describe('every parameter is checked for its chain', () => {
  it('checks addresses per chain', async () => {
    await expectError(onrampParams({ recipient: '0x71c7656ec7ab88b098defb751b7401b5f6d8976' }), 'INVALID_REQUEST');
    await expectError(onrampParams({ recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976f' }), 'INVALID_REQUEST'); // bad EIP-55 checksum
    await expectError(onrampParams({ refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx' }), 'INVALID_REQUEST'); // bad bech32 checksum
    await expectError(onrampParams({ refundAddress: evmUser }), 'INVALID_REQUEST');
    await expectError(tronOfframpParams({ refundAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8' }), 'INVALID_REQUEST'); // bad Base58Check
    await expectError(offrampParams({ recipient: evmUser }), 'INVALID_REQUEST');
    await expectError(solanaSwapParams({ refundAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZz' }), 'INVALID_REQUEST'); // too short for 32 bytes
    await expectError(onrampParams({ affiliates: `${btc.slice(0, 10)}:25` }), 'INVALID_REQUEST');
  });

  it('answers a request with several faults with the first in one order (addresses, amount, slippage, affiliates), whether or not its plan is kept', async () => {
    const badRecipient = { recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976f' };
    const recipientError = { message: expect.stringContaining('recipient') };
    // Faults of the open parameters only: a plan of the others may be kept.
    const openFaults = [
      [badRecipient, 'INVALID_REQUEST'],
      [{ sender: evmUser }, 'INVALID_REQUEST'],
      [{ refundAddress: evmUser }, 'INVALID_REQUEST'],
      [{ amount: '1' }, 'INSUFFICIENT_AMOUNT'],
      [{ ...badRecipient, amount: '1' }, 'INVALID_REQUEST'],
    ] as const;
    // Each with a slippage of its own, no other request's: its plan is made for it.
    const unplanned = [];
    for (const [index, [fault, code]] of openFaults.entries()) {
      unplanned.push(await expectError({ ...onrampParams({ slippage: String(310 + index) }), ...fault }, code));
    }
    // The same faults once the plan of the other parameters is kept.
    const kept = onrampParams({ slippage: '301' });
    for (const _ of [1, 2]) expect((await api.quote(kept)).status).toBe(200);
    for (const [index, [fault, code]] of openFaults.entries()) {
      expect(await expectError({ ...kept, ...fault }, code)).toEqual(unplanned[index]);
    }
    expect(unplanned[4]!.details).toEqual(recipientError);
    // With a fault of the planned parameters too, nothing is kept, and the open parameters' fault comes first.
    await expectError({ ...kept, ...badRecipient, slippage: '100000' }, 'INVALID_REQUEST', recipientError);
    await expectError({ ...kept, sender: evmUser, slippage: '100000' }, 'INVALID_REQUEST', { message: expect.stringContaining('sender') });
    await expectError({ ...kept, refundAddress: evmUser, affiliates: `${affiliate}:10001` }, 'INVALID_REQUEST', {
      message: expect.stringContaining('refundAddress'),
    });
    await expectError({ ...kept, amount: '1', affiliates: `${affiliate}:10001` }, 'INSUFFICIENT_AMOUNT');
    await expectError({ ...kept, slippage: '100000' }, 'SLIPPAGE_TOO_HIGH');
  });

  it("answers a fault of the request before a price the feed lacks, which is the server's fault", async () => {
    const withoutPrices = await testServer({
      database: databaseOf(server()),
      adapters: { prices: { usdPrice: () => undefined, revision: () => 0 } },
    });
    try {
      const api = client(withoutPrices.url);
      const badRecipient = await api.quote(onrampParams({ recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976f' }));
      expect(badRecipient).toMatchObject({
        status: 400,
        body: { code: 'INVALID_REQUEST', details: { message: expect.stringContaining('recipient') } },
      });
      expect(await api.quote(onrampParams())).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } });
    } finally {
      await withoutPrices.close();
    }
  });

  it('distinguishes unknown chains, disabled chains, unknown tokens and missing routes', async () => {
    await expectError(onrampParams({ dstChain: 'bobb' }), 'INVALID_DESTINATION_CHAIN_ID', {
      expected: expect.stringContaining('bob'),
      actual: 'bobb',
    });
    await expectError(onrampParams({ srcChain: 'litecoin' }), 'INVALID_REQUEST');
    await expectError(onrampParams({ dstChain: 'arbitrum', dstToken: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' }), 'DISABLED_CHAIN', {
      message: 'arbitrum',
    });
    await expectError(onrampParams({ dstToken: '0x0000000000000000000000000000000000000001' }), 'INVALID_REQUEST');
    await expectError(onrampParams({ dstToken: 'not-an-address' }), 'INVALID_REQUEST');
    await expectError(
      tronOfframpParams({
        dstChain: 'solana',
        dstToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        recipient: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      }),
      'NO_ROUTE',
      {
        src_chain: 'tron',
        src_token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        dst_chain: 'solana',
        dst_token: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      },
    );
  });

  it('checks affiliates: the route must take them and each fee must be in range', async () => {
    await expectError(tronOfframpParams({ affiliates: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7:10' }), 'AFFILIATE_FEES_NOT_SUPPORTED_FOR_ROUTE');
    await expectError(onrampParams({ affiliates: `${affiliate}:10001` }), 'INVALID_AFFILIATE_FEE', { max: '1000', actual: '10001' });
    await expectError(onrampParams({ affiliates: `${affiliate}:25,` }), 'INVALID_REQUEST');
  });

  it('lists the enabled routes, Solana among the token-swap sources', async () => {
    const { body } = await api.get('/v4/get-routes');
    expect(body).toContainEqual({
      srcChain: 'solana',
      srcToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      dstChain: 'base',
      dstToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    expect(body.some((route: { dstChain: string }) => route.dstChain === 'arbitrum')).toBe(false);
  });
});

describe("get-quote's examples, which the document calls the sandbox server's answers", () => {
  type Quote = Record<string, unknown> & { inputAmount: { chain: string; address: string; amount: string } };
  type Example = Record<string, Quote & { outputAmount: Quote['inputAmount']; recipient: string; affiliates?: Array<{ address: string }> }>;
  /** What each example's text says was asked beyond its own fields. */
  const asked: Record<string, { affiliateBps?: number; slippage?: string }> = {
    onramp: { affiliateBps: 25 },
    onrampWithoutRefundAddress: { affiliateBps: 25 },
    offramp: { affiliateBps: 35, slippage: '100' },
    offrampTron: {},
    tokenSwap: {},
    tokenSwapSolana: {},
  };
  // The seal is new each time (its own test is below).
  const comparable = (quote: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(quote).filter(([key]) => key !== 'signedQuoteData'));

  for (const [name, { affiliateBps, slippage }] of Object.entries(asked)) {
    it(`${name}: asked again, the server answers it but for the seal`, async () => {
      const [route, quote] = Object.entries(documentedExample<Example>('getQuoteV4', '200', name))[0]!;
      const { affiliate: single } = quote as { affiliate?: { address: string; bps: number } };
      const params: Record<string, string> = {
        srcChain: quote.inputAmount.chain,
        dstChain: quote.outputAmount.chain,
        srcToken: quote.inputAmount.address,
        dstToken: quote.outputAmount.address,
        amount: quote.inputAmount.amount,
        recipient: quote.recipient,
        ...(typeof quote.sender === 'string' ? { sender: quote.sender } : {}),
        ...(typeof quote.refundAddress === 'string' ? { refundAddress: quote.refundAddress } : {}),
        ...(slippage ? { slippage } : {}),
        ...(quote.affiliates?.length ? { affiliates: quote.affiliates.map(({ address }) => `${address}:${affiliateBps}`).join(',') } : {}),
        ...(single ? { affiliates: `${single.address}:${single.bps}` } : {}),
      };
      const answer = await api.quote(params);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(comparable(answer.body[route])).toEqual(comparable(quote));
    });
  }

  /** The request examples of create-order in `version`, by name. */
  const createOrderExamples = (version: 'V3' | 'V4') => {
    const createOrder = bundledDocument().operations.find((operation) => operation.operationId === `createOrder${version}`)!;
    const { examples } = (createOrder.requestBody as { content: Record<string, { examples: Record<string, { value: Example }> }> }).content[
      'application/json'
    ]!;
    return Object.fromEntries(Object.entries(examples).map(([name, { value }]) => [name, value]));
  };

  it("V3 create-order's unsealed offramp and token-swap examples: quoted again, the server takes them as they are", async () => {
    const examples = createOrderExamples('V3');
    for (const name of ['offramp', 'tokenSwap']) {
      const answer = await api.post('/v3/create-order', examples[name]);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(201);
    }
  });

  it('each sealed example carries the seal this server gives its values', () => {
    const seal = new QuoteSeal(examplesSigningSecret, sealedFields(bundledDocument().document));
    const getQuote = ['onramp', 'onrampWithoutRefundAddress', 'offramp', 'offrampTron', 'tokenSwap', 'tokenSwapSolana'].map(
      (name) => [`get-quote ${name}`, documentedExample<Example>('getQuoteV4', '200', name)] as const,
    );
    for (const [name, example] of [...getQuote, ['V3 create-order onramp', createOrderExamples('V3').onramp!] as const]) {
      const [route, quote] = Object.entries(example)[0] as [RouteKind, Quote];
      const opened = seal.open(route, quote);
      // A changed example needs a new seal: this one is sealed as the server seals it.
      const resealed = seal.signature(
        sealPayload(route, quote, randomUUID(), Date.parse('2026-11-22T10:15:00Z')),
        seal.formDigest(route, quote),
      );
      const anyId: unknown = expect.stringMatching(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/);
      const anyTime: unknown = expect.any(Number);
      expect(opened, `${name}: its seal does not seal its values; sealed again: ${resealed}`).toEqual(
        sealPayload(route, quote, anyId as string, anyTime as number),
      );
    }
  });

  it("create-order's sealed request examples are refused for their expiry alone, as the ORDER_EXPIRED example says", async () => {
    const expired = documentedExample('createOrderV4', '400', 'ORDER_EXPIRED');
    for (const [version, examples] of [
      ['v4', createOrderExamples('V4')],
      ['v3', { onramp: createOrderExamples('V3').onramp! }],
    ] as const) {
      for (const [name, example] of Object.entries(examples)) {
        const answer = await api.post(`/${version}/create-order`, example);
        expect(answer.body, `${version} ${name}`).toEqual(expired);
      }
    }
  });

  it("get-max-spendable's example: the server answers it for the example's address", async () => {
    const example = documentedExample<{ userAddress: string }>('getMaxSpendableV4', '200', 'maxSpendable');
    expect((await api.get(`/v4/get-max-spendable/${example.userAddress}`)).body).toEqual(example);
  });
});
