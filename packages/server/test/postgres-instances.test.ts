/**
 * Three server instances on one PostgreSQL server, as a deployment that outgrows one process runs
 * them: requests spread over the instances race on separate connections, and every instance runs
 * its own lifecycle loop. Limits, reservations and claims must hold across them, each side effect
 * on a chain must happen once (the adapters' calls are counted), and get-order on any instance
 * answers with what another acknowledged before.
 */
import bs58check from 'bs58check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedBitcoin } from '../src/chains/bitcoin.js';
import { SimulatedChains } from '../src/chains/settlement.js';
import type { ChainKind } from '../src/config/config.js';
import { loadConfig, type RunningServer } from '../src/index.js';
import type { SettlementOrder, TransferRequest } from '../src/chains/settlement.js';
import { client, offrampParams, onrampParams, startTestPostgres, testServer, tronOfframpParams, wbtcBob } from './helpers.js';
import { findPostgres, type PostgresCluster } from '@swap-gateway/test-support/postgres';
import { signedPayment, wallet } from './wallets.js';

const binaries = findPostgres();
if ('missing' in binaries) {
  // CI installs PostgreSQL (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the PostgreSQL instance tests cannot run in CI: ${binaries.missing}`);
  console.warn(`[server] skipping the PostgreSQL instance tests: ${binaries.missing}`);
}

const sandbox = loadConfig({ env: {} });

/** The simulated chains, counting every call that would move funds; each call takes a few ms, as a real one would. */
class CountingChains extends SimulatedChains {
  readonly calls = new Map<string, number>();
  private count(effect: string, order: SettlementOrder): Promise<void> {
    const key = `${effect}:${order.id}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    return new Promise((resolve) => setTimeout(resolve, 5));
  }
  override async sendPayout(request: TransferRequest): Promise<string> {
    await this.count('payout', request.order);
    return super.sendPayout(request);
  }
  override async deliver(request: TransferRequest, chain: ChainKind): Promise<string> {
    await this.count('deliver', request.order);
    return super.deliver(request, chain);
  }
}

describe.skipIf('missing' in binaries)('three instances on one PostgreSQL', () => {
  let cluster: PostgresCluster;
  let instances: RunningServer[];
  let apis: Array<ReturnType<typeof client>>;
  const chains = new CountingChains(sandbox.lifecycle);
  // One simulated Bitcoin network for all instances, as they would share the real one.
  const bitcoin = new SimulatedBitcoin(sandbox.bitcoin);
  const liquidity = sandbox.liquidity.map((entry) => (entry.token === wbtcBob ? { ...entry, amount: '3000000' } : entry));

  beforeAll(async () => {
    cluster = await startTestPostgres(binaries);
    // Started one after another, so that the migrations and the generated signing secret are not what is tested here.
    instances = [];
    for (let i = 0; i < 3; i++)
      instances.push(
        await testServer({
          databaseUrl: cluster.url,
          dataDir: undefined,
          config: { liquidity },
          adapters: { settlement: chains, bitcoin },
        }),
      );
    apis = instances.map((instance) => client(instance.url));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    await cluster?.stop();
  });

  /** Request `i` goes to instance `i % 3`. */
  const spread = <T>(count: number, request: (api: ReturnType<typeof client>, index: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, index) => request(apis[index % 3]!, index)));

  it('never reserves more than the market maker holds', async () => {
    const quotes = await spread(9, async (api) => (await api.quote(onrampParams())).body);
    const answers = await spread(9, (api, index) => api.post('/v4/create-order', quotes[index]));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.body.code === 'INSUFFICIENT_SOLVER_BALANCE')).toHaveLength(6);
    const row = (await apis[1]!.get('/sandbox/liquidity')).body.liquidity.find((entry: { token: string }) => entry.token === wbtcBob);
    expect(row).toMatchObject({ total: '3000000', reserved: String(3n * 995500n) });
    // Give the room back for the register-tx race below.
    for (const answer of answers.filter((answer) => answer.status === 201))
      await apis[2]!.post(`/sandbox/orders/${answer.body.onramp.order_id}/outcome`, { outcome: 'failed' });
  });

  it('makes one order of a quote sent to every instance at once', async () => {
    const quote = (await apis[0]!.quote(offrampParams())).body;
    const answers = await spread(6, (api) => api.post('/v4/create-order', quote));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.code === 'DUPLICATE_ORDER')).toHaveLength(5);
  });

  it('lets exactly three of nine concurrent 30,000 USDT orders of one account through the 100,000 daily limit', async () => {
    const refundAddress = bs58check.encode(Uint8Array.from([0x41, ...new Array(20).fill(7)]));
    const quotes = await spread(9, async (api) => (await api.quote(tronOfframpParams({ amount: '30000000000', refundAddress }))).body);
    const answers = await spread(9, (api, index) => api.post('/v4/create-order', quotes[index]));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(new Set(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.code))).toEqual(
      new Set(['PER_ACCOUNT_LIMIT_EXCEEDED']),
    );
  });

  it('broadcasts one of six different payments of one order registered on every instance at once', async () => {
    const order = (await apis[0]!.post('/v4/create-order', (await apis[0]!.quote(onrampParams({ amount: '100000' }))).body)).body.onramp;
    const payers = Array.from({ length: 6 }, (_, index) => wallet('p2wpkh', `instance racer ${index}`));
    for (const payer of payers) await apis[0]!.get(`/v4/get-max-spendable/${payer.address}`);
    const payments = await Promise.all(
      payers.map((payer) =>
        signedPayment(payer, [
          { address: order.address, value: 100000n },
          { opReturn: order.op_return_data, value: 0n },
        ]),
      ),
    );
    const before = bitcoin.broadcasts.length;
    const answers = await spread(6, (api, index) =>
      api.patch('/v4/register-tx', { onramp: { order_id: order.order_id, bitcoin_tx_hex: payments[index] } }),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(bitcoin.broadcasts.length).toBe(before + 1);
  });

  it('answers get-order on every instance with what another instance acknowledged just before', async () => {
    for (let index = 0; index < 12; index++) {
      const writer = apis[index % 3]!;
      const readers = [apis[(index + 1) % 3]!, apis[(index + 2) % 3]!];
      const quote = (await writer.quote(offrampParams({ amount: String(2_000_000 + index) }))).body;
      const id = (await writer.post('/v4/create-order', quote)).body.offramp.order_id as string;
      // Every instance reads it, so each keeps it in its view of orders.
      for (const reader of readers) expect(Object.keys((await reader.get(`/v4/get-order/${id}`)).body.status)).toEqual(['inProgress']);
      const txHash = `0x${String(index + 1).padStart(64, '0')}`;
      expect((await writer.post(`/sandbox/orders/${id}/source-sent`, { txHash })).status).toBe(200);
      for (const reader of readers) expect((await reader.get(`/v4/get-order/${id}`)).body.srcInfo.txHash).toBe(txHash);
      expect((await writer.post(`/sandbox/orders/${id}/outcome`, { outcome: 'refunded' })).status).toBe(200);
      const [first, second] = await Promise.all(readers.map((reader) => reader.get(`/v4/get-order/${id}`)));
      expect([first!.body.status, second!.body.status].map(Object.keys)).toEqual([['refunded'], ['refunded']]);
    }
  });

  it('sends each offramp payout and each delivery exactly once while every instance runs its lifecycle', async () => {
    const created = await spread(24, async (api, index) => {
      const quote = (await api.quote(offrampParams({ amount: String(1_000_000 + index) }))).body;
      const answer = await api.post('/v4/create-order', quote);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.offramp.order_id as string;
    });
    await spread(24, (api, index) => api.post(`/sandbox/orders/${created[index]}/source-sent`, {}));
    // Every instance passes over the same orders at the same time: confirmed → payout → settled.
    for (const seconds of [60, 60, 60]) {
      // The clock is the sandbox's, shared through the store: moved on one instance, it moves on all.
      expect((await apis[0]!.post('/sandbox/advance', { seconds })).status).toBe(200);
      await Promise.all(instances.flatMap((instance) => [instance.services.lifecycle.tick(), instance.services.lifecycle.tick()]));
    }
    for (const id of created) {
      const order = (await apis[2]!.get(`/v4/get-order/${id}`)).body;
      expect(Object.keys(order.status), id).toEqual(['success']);
      expect(chains.calls.get(`payout:${id}`), id).toBe(1);
    }
    const payoutsOfOthers = [...chains.calls].filter(([key, count]) => key.startsWith('payout:') && count !== 1);
    expect(payoutsOfOthers).toEqual([]);
    expect([...chains.calls].filter(([key, count]) => key.startsWith('deliver:') && count !== 1)).toEqual([]);
  }, 60_000);
});

describe.skipIf('missing' in binaries)('one sandbox across two instances on one PostgreSQL', () => {
  let cluster: PostgresCluster;
  let instances: RunningServer[];
  let apis: Array<ReturnType<typeof client>>;

  beforeAll(async () => {
    cluster = await startTestPostgres(binaries);
    instances = [];
    // Each with the simulated chains of its own, as separate processes have them.
    for (let i = 0; i < 2; i++) instances.push(await testServer({ databaseUrl: cluster.url, dataDir: undefined }));
    apis = instances.map((instance) => client(instance.url));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    await cluster?.stop();
  });

  it('fails the next requests of either instance after faults are injected through one', async () => {
    expect((await apis[0]!.post('/sandbox/faults', { count: 2 })).status).toBe(200);
    expect((await apis[1]!.get('/v4/get-routes')).status).toBe(500);
    expect((await apis[0]!.get('/v4/get-routes')).status).toBe(500);
    expect((await apis[1]!.get('/v4/get-routes')).status).toBe(200);
    expect((await apis[0]!.get('/v4/get-routes')).status).toBe(200);
  });

  it('keeps one clock: moved through one instance, a quote of the other expires', async () => {
    const quote = (await apis[0]!.quote(onrampParams())).body;
    const moved = await apis[1]!.post('/sandbox/advance', { seconds: sandbox.quoteTtlSeconds + 1 });
    expect(moved.status).toBe(200);
    const answer = await apis[0]!.post('/v4/create-order', quote);
    expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 400, body: { code: 'ORDER_EXPIRED' } });
  });

  it('quotes one market: a price set through one instance is the price of the other', async () => {
    const before = (await apis[1]!.quote(offrampParams())).body.offramp;
    const btc = (await apis[0]!.get('/sandbox/prices')).body.prices.find((price: { symbol: string }) => price.symbol === 'BTC');
    expect((await apis[0]!.post('/sandbox/prices', { chain: btc.chain, token: btc.token, priceUsd: '90000' })).status).toBe(200);
    const after = (await apis[1]!.quote(offrampParams())).body.offramp;
    expect(BigInt(after.outputAmount.amount)).toBeGreaterThan(BigInt(before.outputAmount.amount));
    expect((await apis[1]!.get('/sandbox/prices')).body.prices.find((price: { symbol: string }) => price.symbol === 'BTC').priceUsd).toBe(
      '90000',
    );
    // A quote without its seal, quoted again by the other instance at the same price, is accepted there.
    const { signedQuoteData: _seal, ownerAddress: _owner, ...unsealed } = after;
    expect((await apis[0]!.post('/v4/create-order', { offramp: unsealed })).status).toBe(201);
  });

  it('knows on one instance the Bitcoin outputs the other handed out', async () => {
    const payer = wallet('p2wpkh', 'across instances');
    expect((await apis[0]!.get(`/sandbox/bitcoin/utxos/${payer.address}`)).status).toBe(200);
    const quote = (await apis[0]!.quote(onrampParams())).body;
    const order = (await apis[0]!.post('/v4/create-order', quote)).body.onramp;
    const payment = await signedPayment(payer, [
      { address: order.address, value: BigInt(quote.onramp.inputAmount.amount) },
      { opReturn: order.op_return_data, value: 0n },
    ]);
    const registered = await apis[1]!.patch('/v4/register-tx', { onramp: { order_id: order.order_id, bitcoin_tx_hex: payment } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  });
});

describe.skipIf('missing' in binaries)('the sandbox clock with every instance running its lifecycle', () => {
  let cluster: PostgresCluster;
  let instances: RunningServer[];
  let apis: Array<ReturnType<typeof client>>;
  /** What the instances logged (the lifecycle's failed looks): a failure shows them. */
  const warnings: string[] = [];
  const logger = { level: 'warn', stream: { write: (line: string) => void warnings.push(line) } };

  /** Payouts that take a while, as a real chain's do: another instance's pass can be mid-way through one. */
  class SlowChains extends SimulatedChains {
    override async sendPayout(request: TransferRequest): Promise<string> {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return super.sendPayout(request);
    }
  }

  beforeAll(async () => {
    cluster = await startTestPostgres(binaries);
    instances = [];
    for (let i = 0; i < 2; i++)
      instances.push(
        await testServer({
          databaseUrl: cluster.url,
          dataDir: undefined,
          config: { lifecycle: { confirmationDelaySeconds: 30, payoutDelaySeconds: 30, tickMs: 10 } },
          adapters: { settlement: new SlowChains(sandbox.lifecycle) },
          logger,
        }),
      );
    apis = instances.map((instance) => client(instance.url));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    await cluster?.stop();
  });

  it('answers an advance once what is due has happened, though the other instance started the payout', async () => {
    for (let round = 0; round < 4; round++) {
      const quote = (await apis[0]!.quote(offrampParams({ amount: String(1_500_000 + round) }))).body;
      const id = (await apis[0]!.post('/v4/create-order', quote)).body.offramp.order_id as string;
      expect((await apis[1]!.post(`/sandbox/orders/${id}/source-sent`, {})).status).toBe(200);
      expect((await apis[round % 2]!.post('/sandbox/advance', { seconds: 31 })).status).toBe(200);
      const status = (await apis[(round + 1) % 2]!.get(`/v4/get-order/${id}`)).body.status;
      expect(status, `round ${round}; logged: ${warnings.join('')}`).toMatchObject({
        inProgress: { pending_btc_payment: { txid: expect.stringMatching(/^[0-9a-f]{64}$/) } },
      });
      expect(warnings).toEqual([]);
    }
  });
});
