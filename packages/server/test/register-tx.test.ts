/**
 * register-tx checks the payment like a node would: the inputs spend outputs the chain knows, each
 * once, worth at least what the outputs pay, their signatures verify (every standard script type),
 * every spender is screened under its own address,
 * and of two concurrent registrations of different payments only one is claimed and broadcast.
 */
import * as bitcoin from 'bitcoinjs-lib';
import { describe, expect, it } from 'vitest';
import type { SimulatedBitcoin } from '../src/chains/bitcoin.js';
import { loadConfig } from '../src/index.js';
import { onrampParams, rawPayment, testServerPerSuite } from './helpers.js';
import { signedPayment, simulatedUtxos, wallet, type ScriptType } from './wallets.js';

const types: ScriptType[] = ['p2wpkh', 'p2pkh', 'p2sh-p2wpkh', 'p2wsh', 'p2tr'];
const denied = ['p2sh-p2wpkh', 'p2wsh', 'p2tr'].map((type) => wallet(type as ScriptType, `denied ${type}`));

const { server, api } = testServerPerSuite({ config: { denyList: denied.map((entry) => entry.address) } });

async function onrampOrder() {
  const quote = await api.quote(onrampParams());
  const created = await api.post('/v4/create-order', quote.body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.onramp as { order_id: string; address: string; op_return_data: string };
}

/** Lets the simulated chain hand the wallet its UTXOs, as a wallet's balance lookup does. */
const fund = async (address: string) => expect((await api.get(`/v4/get-max-spendable/${address}`)).status).toBe(200);
const register = (orderId: string, hex: string) => api.patch('/v4/register-tx', { onramp: { order_id: orderId, bitcoin_tx_hex: hex } });
const broadcasts = () => (server().services.bitcoin as SimulatedBitcoin).broadcasts.length;
const status = async (id: string) => Object.keys((await api.get(`/v4/get-order/${id}`)).body.status)[0];

/** A payment refused with INVALID_REQUEST and these details: nothing broadcast, the order still waiting for a payment. */
async function expectRefused(orderId: string, hex: string, details: Record<string, unknown>) {
  const before = broadcasts();
  expect(await register(orderId, hex)).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', details } });
  expect(broadcasts()).toBe(before);
  expect(await status(orderId)).toBe('inProgress');
}

/**
 * A payment of the order that a funded P2WPKH wallet signs input by input, as no wallet library would build
 * it (bitcoinjs-lib's PSBT refuses outputs worth more than the inputs, and an output spent twice): the
 * wallet's first UTXO spent by `inputs` inputs, the order's amount and OP_RETURN, and `change` of the
 * UTXO's value back to the wallet.
 */
async function paymentByHand(
  order: { address: string; op_return_data: string },
  label: string,
  change: (value: bigint) => bigint,
  inputs = 1,
) {
  const payer = wallet('p2wpkh', label);
  await fund(payer.address);
  const utxo = (await simulatedUtxos(payer.address))[0]!;
  const transaction = new bitcoin.Transaction();
  transaction.version = 2;
  for (let input = 0; input < inputs; input++) transaction.addInput(Buffer.from(utxo.txid, 'hex').reverse(), utxo.vout);
  transaction.addOutput(bitcoin.address.toOutputScript(order.address), 1000000n);
  transaction.addOutput(bitcoin.payments.embed({ data: [Buffer.from(order.op_return_data, 'hex')] }).output!, 0n);
  transaction.addOutput(bitcoin.address.toOutputScript(payer.address), change(utxo.value));
  const scriptCode = bitcoin.payments.p2pkh({ pubkey: payer.key.publicKey }).output!;
  for (let input = 0; input < inputs; input++) {
    const hash = transaction.hashForWitnessV0(input, scriptCode, utxo.value, bitcoin.Transaction.SIGHASH_ALL);
    const signature = bitcoin.script.signature.encode(payer.key.sign(hash), bitcoin.Transaction.SIGHASH_ALL);
    transaction.setWitness(input, [signature, payer.key.publicKey]);
  }
  return { hex: transaction.toHex(), utxo };
}

describe('register-tx verifies the inputs', () => {
  it('refuses a payment spending an outpoint the chain never created, with the outpoint in details', async () => {
    const order = await onrampOrder();
    const hex = rawPayment([
      { address: order.address, value: 1000000n },
      { opReturn: order.op_return_data, value: 0n },
    ]);
    await expectRefused(order.order_id, hex, {
      expected: 'an unspent output known to the chain',
      actual: expect.stringMatching(/^[0-9a-f]{64}:0$/),
    });
  });

  it('refuses a known outpoint spent with a witness [0x01, pubkey] instead of a signature', async () => {
    const order = await onrampOrder();
    const payer = wallet('p2wpkh', 'forger');
    await fund(payer.address);
    const transaction = bitcoin.Transaction.fromHex(
      await signedPayment(payer, [
        { address: order.address, value: 1000000n },
        { opReturn: order.op_return_data, value: 0n },
      ]),
    );
    transaction.setWitness(0, [Uint8Array.of(1), payer.key.publicKey]);
    await expectRefused(order.order_id, transaction.toHex(), { expected: expect.any(String), actual: expect.stringMatching(/^input 0: /) });
  });

  const withinSupply = 'outputs within the money supply, 2,100,000,000,000,000 sats';
  it.each([
    {
      what: 'more than its input holds',
      change: (input: bigint) => input,
      expected: 'outputs worth no more than the outputs the inputs spend',
      actual: /^the outputs pay \d+ sats, more than the \d+ the inputs spend$/,
    },
    {
      what: 'an output beyond the money supply',
      change: () => 2_100_000_000_000_001n,
      expected: withinSupply,
      actual: /^output 2 pays 2100000000000001 sats$/,
    },
    {
      what: 'outputs beyond the money supply together',
      change: () => 2_100_000_000_000_000n,
      expected: withinSupply,
      actual: /^the outputs pay 2100000001000000 sats together$/,
    },
  ])('refuses a signed payment that pays $what', async ({ change, expected, actual }) => {
    const order = await onrampOrder();
    const { hex } = await paymentByHand(order, 'overspender', change);
    await expectRefused(order.order_id, hex, { expected, actual: expect.stringMatching(actual) });
  });

  it('refuses a payment whose two inputs spend one output, which would count its value twice', async () => {
    const order = await onrampOrder();
    // Change that only the output counted twice could pay.
    const { hex, utxo } = await paymentByHand(order, 'double spender', (value) => 2n * value - 1000000n - 2000n, 2);
    await expectRefused(order.order_id, hex, { expected: 'each output spent by one input', actual: `${utxo.txid}:${utxo.vout}` });
  });

  it.each(types)('accepts a validly signed %s payment, and an upper-case order_id', async (type) => {
    const order = await onrampOrder();
    const payer = wallet(type);
    await fund(payer.address);
    const hex = await signedPayment(payer, [
      { address: order.address, value: 1000000n },
      { opReturn: order.op_return_data, value: 0n },
    ]);
    const answer = await register(order.order_id.toUpperCase(), hex);
    expect(answer, JSON.stringify(answer.body)).toMatchObject({
      status: 200,
      body: { onramp: { txid: bitcoin.Transaction.fromHex(hex).getId() } },
    });
  });

  it.each(denied)('screens a $type spender under its own address', async (payer) => {
    const order = await onrampOrder();
    await fund(payer.address);
    const hex = await signedPayment(payer, [
      { address: order.address, value: 1000000n },
      { opReturn: order.op_return_data, value: 0n },
    ]);
    expect(await register(order.order_id, hex)).toMatchObject({
      status: 400,
      body: { code: 'NON_COMPLIANT_ADDRESSES', details: { addresses: [payer.address] } },
    });
  });
});

describe('GET /sandbox/bitcoin/utxos/{address}', () => {
  it('lists the outputs the chain gives the address, which a payment built from them may spend', async () => {
    const order = await onrampOrder();
    const payer = wallet('p2wpkh', 'utxo lister');
    const listed = await api.get(`/sandbox/bitcoin/utxos/${payer.address}`);
    expect(listed.status).toBe(200);
    const expected = await simulatedUtxos(payer.address);
    expect(listed.body).toEqual({ utxos: expected.map((utxo) => ({ ...utxo, value: utxo.value.toString() })) });
    // Listing alone lets the chain know the outputs: register-tx finds and verifies them.
    const hex = await signedPayment(payer, [
      { address: order.address, value: 1000000n },
      { opReturn: order.op_return_data, value: 0n },
    ]);
    expect((await register(order.order_id, hex)).status).toBe(200);
  });

  it('refuses what is not an address of the network', async () => {
    expect(await api.get('/sandbox/bitcoin/utxos/tb1qnotanaddress')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST', details: { expected: 'a Bitcoin address', actual: 'tb1qnotanaddress' } },
    });
  });
});

describe('register-tx claims the order before broadcasting', () => {
  it('broadcasts only one of two different payments registered at the same time', async () => {
    const order = await onrampOrder();
    const [first, second] = [wallet('p2wpkh', 'racer one'), wallet('p2tr', 'racer two')];
    await fund(first.address);
    await fund(second.address);
    const payments = await Promise.all(
      [first, second].map((payer) =>
        signedPayment(payer, [
          { address: order.address, value: 1000000n },
          { opReturn: order.op_return_data, value: 0n },
        ]),
      ),
    );
    const before = broadcasts();
    const answers = await Promise.all(payments.map((hex) => register(order.order_id, hex)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(broadcasts()).toBe(before + 1);
    const winner = answers.find((answer) => answer.status === 200)!.body.onramp.txid;
    expect((await api.get(`/v4/get-order/${order.order_id}`)).body.srcInfo.txHash).toBe(winner);
  });
});

describe('a payment registered as its payment window closes', () => {
  const { unpaidOrderExpirySeconds, confirmationDelaySeconds } = loadConfig({ env: {} }).lifecycle;
  const advance = async (seconds: number) => expect((await api.post('/sandbox/advance', { seconds })).status).toBe(200);

  async function paidOrder(label: string) {
    const order = await onrampOrder();
    const payer = wallet('p2wpkh', label);
    await fund(payer.address);
    const hex = await signedPayment(payer, [
      { address: order.address, value: 1000000n },
      { opReturn: order.op_return_data, value: 0n },
    ]);
    return { order, hex };
  }

  it('keeps an order whose payment register-tx accepted after the lifecycle read it unpaid, and settles it', async () => {
    const { order, hex } = await paidOrder('paying at the deadline');
    // The lifecycle's statements: on the embedded store, the database's background. The payment is
    // registered after the look that expires the order read it, before its expiry is written.
    const db = server().services.db.background;
    const query = db.query.bind(db);
    let registered: Awaited<ReturnType<typeof register>> | undefined;
    db.query = (async (sql: string, params?: unknown[]) => {
      if (!registered && sql.includes('WITH settled AS') && String(params?.[2]).includes('"expired"'))
        registered = await register(order.order_id, hex);
      return query(sql, params);
    }) as typeof db.query;
    try {
      await advance(unpaidOrderExpirySeconds);
    } finally {
      db.query = query;
    }
    expect(registered).toMatchObject({ status: 200 });
    const read = (await api.get(`/v4/get-order/${order.order_id}`)).body;
    expect(Object.keys(read.status)).toEqual(['inProgress']);
    expect(read.srcInfo.txHash).toBe(registered!.body.onramp.txid);
    await advance(confirmationDelaySeconds);
    expect(await status(order.order_id)).toBe('success');
  });

  it('refuses, broadcasting nothing, a payment of an order that expired while register-tx checked it', async () => {
    const { order, hex } = await paidOrder('paying too late');
    const db = server().services.db;
    const transaction = db.transaction.bind(db);
    db.transaction = (async (work: Parameters<typeof transaction>[0]) => {
      db.transaction = transaction;
      await advance(unpaidOrderExpirySeconds);
      return transaction(work);
    }) as typeof db.transaction;
    const before = broadcasts();
    try {
      expect(await register(order.order_id, hex)).toMatchObject({
        status: 400,
        body: { code: 'INVALID_REQUEST', error: 'the order is failed', details: { expected: 'inProgress', actual: 'failed' } },
      });
    } finally {
      db.transaction = transaction;
    }
    expect(broadcasts()).toBe(before);
    expect((await api.get(`/v4/get-order/${order.order_id}`)).body.status).toMatchObject({ failed: { reason: 'expired' } });
  });
});
