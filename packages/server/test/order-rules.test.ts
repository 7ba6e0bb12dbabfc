/**
 * create-order rules found missing by the review: no order nobody can reclaim (V3 token swaps),
 * volume limits re-checked under concurrency, forged quotes refused without a stored copy, unpaid orders
 * expiring; and the sandbox's source-sent refusing a malformed hash.
 */
import bs58check from 'bs58check';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '@swap-gateway/openapi';
import { QuoteSeal, type QuoteSealPayload } from '../src/quote/seal.js';
import { sealedFields } from '../src/quote/sealed-fields.js';
import { loadConfig } from '../src/index.js';
import {
  affiliate,
  documentedExample,
  offrampParams,
  onrampParams,
  testServerPerSuite,
  tokenSwapParams,
  tronOfframpParams,
  usdtTron,
} from './helpers.js';
import { signedPayment, wallet } from './wallets.js';

const sandbox = loadConfig({ env: {} });
/** Two accounts of 90,000 USDT each fit the per-account limit (100,000) but not a global limit of 150,000. */
const globalLimit = '150000000000';
const routes = sandbox.routes.map((route) => (route.srcChain === 'tron' ? { ...route, globalLimit } : route));
const tronAccount = (seed: number) => bs58check.encode(Uint8Array.from([0x41, ...new Array(20).fill(seed)]));

const { server, api } = testServerPerSuite({ config: { routes } });

const liquidity = async (chain: string, token: string) =>
  (await api.get('/sandbox/liquidity')).body.liquidity.find(
    (row: { chain: string; token: string }) => row.chain === chain && row.token === token,
  );

describe('V3 create-order of a token swap nobody could reclaim', () => {
  it('refuses a Solana token swap quoted without refundAddress or sender (was a 500)', async () => {
    const quote = await api.quote({
      srcChain: 'solana',
      dstChain: 'base',
      srcToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      dstToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      amount: '10000000',
      recipient: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
    });
    expect(quote.status).toBe(200);
    const answer = await api.post('/v3/create-order', quote.body);
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'INVALID_ORDER_ARGS',
        error: expect.stringContaining('request a new quote with a sender, which the V3 token-swap shape carries'),
        details: { expected: 'refundAddress or sender', actual: 'none' },
      },
    });
  });

  it('refuses an EVM token swap without either (was 201 with refund_address null), and takes the sender as refund claimant', async () => {
    const { sender: _sender, refundAddress: _refund, ...params } = tokenSwapParams();
    const refused = await api.post('/v3/create-order', (await api.quote(params)).body);
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_ARGS' } });
    const { refundAddress: _none, ...withSender } = tokenSwapParams();
    expect((await api.post('/v3/create-order', (await api.quote(withSender)).body)).status).toBe(201);
  });
});

describe('volume limits at create-order', () => {
  it('lets only one of two concurrent 90,000 USDT orders of one account through the 100,000 daily limit', async () => {
    const refundAddress = tronAccount(1);
    const quotes = await Promise.all(
      [1, 2].map(async () => (await api.quote(tronOfframpParams({ amount: '90000000000', refundAddress }))).body),
    );
    const answers = await Promise.all(quotes.map((quote) => api.post('/v4/create-order', quote)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body).toEqual(
      documentedExample('createOrderV4', '400', 'PER_ACCOUNT_LIMIT_EXCEEDED'),
    );
  });

  it("holds the route's global limit against concurrent orders of different accounts", async () => {
    // 90,000 of the previous test are open: each 50,000 quote fits the 150,000 limit, both orders do not.
    const quotes = await Promise.all(
      [2, 3].map(async (seed) => (await api.quote(tronOfframpParams({ amount: '50000000000', refundAddress: tronAccount(seed) }))).body),
    );
    expect(
      quotes.every((quote) => quote.offramp),
      JSON.stringify(quotes),
    ).toBe(true);
    const answers = await Promise.all(quotes.map((quote) => api.post('/v4/create-order', quote)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body).toMatchObject({
      code: 'GLOBAL_LIMIT_EXCEEDED',
      details: { limit: globalLimit, token: usdtTron, chain_id: 'tron' },
    });
  });
});

describe('create-order verifies quotes without a stored copy', () => {
  const quoteFields = sealedFields(loadBundle('gateway'));
  const sealed = <Q extends object>(seal: QuoteSeal, payload: QuoteSealPayload, quote: Q) => ({
    ...quote,
    signedQuoteData: seal.signature(payload, seal.formDigest(payload.route, quote)),
  });

  it('refuses a forged token-swap quote sealed with another secret: a seal that does not match is refused, not quoted again', async () => {
    const quote = (await api.quote(tokenSwapParams())).body.tokenSwap;
    const { signedQuoteData, ...rest } = quote;
    const payload = JSON.parse(Buffer.from(signedQuoteData.split('.')[1], 'base64url').toString('utf8'));
    const forged = sealed(new QuoteSeal('a-secret-the-forger-guessed', quoteFields), payload, {
      ...rest,
      outputAmount: { ...rest.outputAmount, amount: String(BigInt(rest.outputAmount.amount) * 2n) },
    });
    expect(await api.post('/v4/create-order', { tokenSwap: forged })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ORDER_ARGS', details: { message: 'signedQuoteData does not match the quote' } },
    });
    expect((await api.post('/v4/create-order', { tokenSwap: quote })).status).toBe(201);
  });

  it("refuses a forged onramp quote, its seal the only proof, with the document's example word for word", async () => {
    const quote = (await api.quote(onrampParams())).body.onramp;
    const { signedQuoteData, ...rest } = quote;
    const payload = JSON.parse(Buffer.from(signedQuoteData.split('.')[1], 'base64url').toString('utf8'));
    const forged = sealed(new QuoteSeal('a-secret-the-forger-guessed', quoteFields), payload, rest);
    const answer = await api.post('/v4/create-order', { onramp: forged });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(documentedExample('createOrderV4', '400', 'INVALID_ORDER_ARGS'));
  });

  it('seals with a secret generated at the first start and kept in the store when none is configured', async () => {
    expect(sandbox.signingSecret).toBeUndefined();
    const [setting] = await server().services.db.query<{ value: string }>(
      `SELECT value FROM gateway_settings WHERE name = 'signing_secret'`,
    );
    const value = setting!.value;
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const quote = (await api.quote(onrampParams())).body.onramp;
    const { signedQuoteData, ...rest } = quote;
    const payload = JSON.parse(Buffer.from(signedQuoteData.split('.')[1], 'base64url').toString('utf8'));
    expect(sealed(new QuoteSeal(value, quoteFields), payload, rest).signedQuoteData).toBe(signedQuoteData);
  });
});

describe('unpaid orders expire', () => {
  it('fails an order whose source transaction is not seen within the window, and releases its liquidity', async () => {
    const { lifecycle } = sandbox;
    const before = await liquidity('bob', onrampParams().dstToken);
    const onramp = (await api.post('/v4/create-order', (await api.quote(onrampParams())).body)).body.onramp;
    const offramp = (await api.post('/v4/create-order', (await api.quote(offrampParams())).body)).body.offramp;
    const reserved = await liquidity('bob', onrampParams().dstToken);
    expect(BigInt(reserved.reserved)).toBeGreaterThan(BigInt(before.reserved));

    await api.post('/sandbox/advance', { seconds: lifecycle.unpaidOrderExpirySeconds - 60 });
    expect(Object.keys((await api.get(`/v4/get-order/${onramp.order_id}`)).body.status)).toEqual(['inProgress']);
    // A seen source transaction stops the clock: this offramp does not expire.
    expect((await api.post(`/sandbox/orders/${offramp.order_id}/source-sent`, {})).status).toBe(200);

    await api.post('/sandbox/advance', { seconds: 61 });
    const expired = (await api.get(`/v4/get-order/${onramp.order_id}`)).body;
    expect(expired.status).toEqual({ failed: { reason: 'expired', message: expect.any(String) } });
    expect(expired.estimatedTimeInSecs).toBe(0);
    expect((await liquidity('bob', onrampParams().dstToken)).reserved).toBe(before.reserved);
    expect(Object.keys((await api.get(`/v4/get-order/${offramp.order_id}`)).body.status)).not.toEqual(['failed']);

    const payer = wallet('p2wpkh', 'late payer');
    await api.get(`/v4/get-max-spendable/${payer.address}`);
    const late = await signedPayment(payer, [
      { address: onramp.address, value: 1000000n },
      { opReturn: onramp.op_return_data, value: 0n },
    ]);
    expect((await api.patch('/v4/register-tx', { onramp: { order_id: onramp.order_id, bitcoin_tx_hex: late } })).body).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { expected: 'inProgress', actual: 'failed' },
    });
  });
});

describe('small rules', () => {
  it('source-sent refuses a hash that is not in the chain format, and get-order does not find it', async () => {
    const id = (await api.post('/v4/create-order', (await api.quote(tokenSwapParams())).body)).body.tokenSwap.order_id;
    expect(await api.post(`/sandbox/orders/${id}/source-sent`, { txHash: 'not-a-hash' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST', details: { expected: '0x and 64 hex digits', actual: 'not-a-hash' } },
    });
    expect((await api.get('/v4/get-order/not-a-hash')).status).toBe(404);
    expect((await api.post(`/sandbox/orders/${id.toUpperCase()}/source-sent`, { txHash: `0x${'cd'.repeat(32)}` })).status).toBe(200);
  });

  it('reports an affiliate fee out of range as written, not as 1e+23', async () => {
    const answer = await api.quote(tokenSwapParams({ affiliates: `${affiliate}:100000000000000000000000` }));
    expect(answer.body).toMatchObject({ code: 'INVALID_AFFILIATE_FEE', details: { actual: '100000000000000000000000' } });
  });

  it('gives addresses different simulated balances, never below the configured one less the fee of spending them', async () => {
    const spendable = await Promise.all(
      ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', wallet('p2tr').address].map(
        async (address) => (await api.get(`/v4/get-max-spendable/${address}`)).body.amount.amount,
      ),
    );
    expect(new Set(spendable).size).toBe(2);
    for (const amount of spendable) expect(BigInt(amount)).toBeGreaterThan(BigInt(sandbox.bitcoin.simulatedBalanceSats) - 10_000n);
  });
});
