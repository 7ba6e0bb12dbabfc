/**
 * The create-order volume limit and the register-tx claim on a real PostgreSQL server, where
 * concurrent requests run on separate connections (PGlite runs one transaction at a time).
 */
import bs58check from 'bs58check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBitcoin } from '../src/chains/bitcoin.js';
import type { RunningServer } from '../src/index.js';
import { client, onrampParams, testServer, tronOfframpParams } from './helpers.js';
import { findPostgres, startPostgres, type PostgresCluster } from '../src/dev/postgres-cluster.js';
import { signedPayment, wallet } from './wallets.js';

const binaries = findPostgres();
if ('missing' in binaries) {
  // CI installs PostgreSQL (scripts/system-deps.sh): there its absence is a failure, not a skip.
  if (process.env.CI) throw new Error(`the PostgreSQL limit tests cannot run in CI: ${binaries.missing}`);
  console.warn(`[server] skipping the PostgreSQL limit tests: ${binaries.missing}`);
}

describe.skipIf('missing' in binaries)('create-order and register-tx races on PostgreSQL', () => {
  let cluster: PostgresCluster;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    cluster = await startPostgres(binaries as Exclude<typeof binaries, { missing: string }>);
    server = await testServer({ databaseUrl: cluster.url, dataDir: undefined });
    api = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await cluster?.stop();
  });

  it('lets exactly three of eight concurrent 30,000 USDT orders of one account through the 100,000 daily limit', async () => {
    const refundAddress = bs58check.encode(Uint8Array.from([0x41, ...new Array(20).fill(7)]));
    const quotes = await Promise.all(Array.from({ length: 8 }, async () => (await api.quote(tronOfframpParams({ amount: '30000000000', refundAddress }))).body));
    const answers = await Promise.all(quotes.map((quote) => api.post('/v4/create-order', quote)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(new Set(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.code))).toEqual(new Set(['PER_ACCOUNT_LIMIT_EXCEEDED']));
  });

  it('broadcasts one of four different payments registered at the same time', async () => {
    const order = (await api.post('/v4/create-order', (await api.quote(onrampParams())).body)).body.onramp;
    const payers = [0, 1, 2, 3].map((index) => wallet('p2wpkh', `postgres racer ${index}`));
    for (const payer of payers) await api.get(`/v4/get-max-spendable/${payer.address}`);
    const payments = await Promise.all(payers.map((payer) => signedPayment(payer, [{ address: order.address, value: 1000000n }, { opReturn: order.op_return_data, value: 0n }])));
    const before = (server.services.bitcoin as SimulatedBitcoin).broadcasts.length;
    const answers = await Promise.all(payments.map((hex) => api.patch('/v4/register-tx', { onramp: { order_id: order.order_id, bitcoin_tx_hex: hex } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
    expect((server.services.bitcoin as SimulatedBitcoin).broadcasts.length).toBe(before + 1);
  });
});
