/** create-order, register-tx, the lifecycle, get-order and get-orders. */
import { readFileSync } from 'node:fs';
import { VersionedTransaction } from '@solana/web3.js';
import * as bitcoin from 'bitcoinjs-lib';
import { decodeFunctionData, isAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { DepositAddresses } from '../src/chains/bitcoin.js';
import { gatewayAbi } from '../src/chains/transactions.js';
import { sandboxConfigFile, type GatewayConfig } from '../src/index.js';
import {
  affiliate,
  type Answer,
  btcUser,
  client,
  deniedAddress,
  documentedExample,
  evmUser,
  offrampParams,
  onrampParams,
  rawPayment,
  senderAddress,
  signPsbt,
  solanaSwapParams,
  solanaUser,
  testServer,
  testServerPerSuite,
  tokenSwapParams,
  tronOfframpParams,
  usdcBase,
  wbtcBob,
} from './helpers.js';
import { signedPayment, simulatedBalance, wallet } from './wallets.js';

const { server, api } = testServerPerSuite();

async function order(params: Record<string, string>, version: 'v3' | 'v4' = 'v4') {
  const quote = await api.quote(params);
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const created = await api.post(`/${version}/create-order`, quote.body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { quote: quote.body, created: created.body };
}

const liquidity = async (chain: string, token: string) =>
  (await api.get('/sandbox/liquidity')).body.liquidity.find(
    (row: { chain: string; token: string }) => row.chain === chain && row.token === token,
  );

describe('create-order', () => {
  it('gives an onramp a fresh deposit address, OP_RETURN data and a PSBT paying it from the sender', async () => {
    const first = await order(onrampParams({ sender: senderAddress }));
    const second = await order(onrampParams());
    const onramp = first.created.onramp;
    expect(onramp.address).not.toBe(second.created.onramp.address);
    expect(second.created.onramp.psbt_hex).toBeNull();
    const psbt = bitcoin.Psbt.fromHex(onramp.psbt_hex);
    const outputs = psbt.txOutputs;
    expect(outputs[0]).toMatchObject({ address: onramp.address, value: 1000000n });
    expect(Buffer.from(outputs[1]!.script).toString('hex')).toBe(`6a20${onramp.op_return_data}`);
    expect(outputs[2]!.address).toBe(senderAddress);
  });

  it('takes no deposit address for an onramp quote sent again: the next order gets the next one', async () => {
    const { config, bitcoin: chain } = server().services;
    const addresses = new DepositAddresses(config.bitcoin.depositXpub, chain.network);
    const first = await order(onrampParams());
    expect((await api.post('/v4/create-order', first.quote)).body).toMatchObject({ code: 'DUPLICATE_ORDER' });
    const next = await order(onrampParams());
    const index = Array.from({ length: 200 }, (_, at) => addresses.at(at)).indexOf(first.created.onramp.address);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(next.created.onramp.address).toBe(addresses.at(index + 1));
  });

  it('gives an EVM offramp calldata to txTo that decodes with the gateway ABI', async () => {
    const { quote, created } = await order(offrampParams());
    const tx = created.offramp.tx;
    expect(tx).toMatchObject({ type: 'evm', to: quote.offramp.txTo, value: '0', chain: 'ethereum' });
    // Wallets (viem) refuse a mixed-case address whose EIP-55 checksum is wrong.
    expect(isAddress(tx.to, { strict: true })).toBe(true);
    const call = decodeFunctionData({ abi: gatewayAbi, data: tx.data });
    expect(call.functionName).toBe('createOrder');
    expect(call.args[2]).toBe(5000000n);
    expect(call.args[3]).toBe((BigInt(quote.offramp.outputAmount.amount) * 9900n) / 10000n);
    expect(Buffer.from((call.args[4] as string).slice(2), 'hex').equals(Buffer.from(bitcoin.address.toOutputScript(btcUser)))).toBe(true);
    expect((call.args[5] as string).toLowerCase()).toBe(evmUser.toLowerCase());
  });

  it('gives a Tron offramp a transaction with feeLimit, and a Solana token swap an unsigned versioned transaction', async () => {
    const tron = (await order(tronOfframpParams())).created.offramp.tx;
    expect(tron).toMatchObject({ type: 'tron', chain: 'tron', feeLimit: '100000000', to: 'TXk8rQSAvPvBBNtqSoY6nCfsXWCSSpTVQF' });
    expect(decodeFunctionData({ abi: gatewayAbi, data: `0x${tron.data}` }).functionName).toBe('createOrder');

    const solana = (await order(solanaSwapParams())).created.tokenSwap.tx;
    expect(solana).toMatchObject({ type: 'solana', chainId: 101 });
    const transaction = VersionedTransaction.deserialize(Buffer.from(solana.transaction, 'base64'));
    expect(transaction.version).toBe(0);
    expect(transaction.message.staticAccountKeys[0]!.toBase58()).toBe(solanaUser);
    expect(transaction.signatures).toHaveLength(1);
    expect(transaction.signatures[0]!.every((byte) => byte === 0)).toBe(true);
  });

  it('refuses a tampered, an expired and a reused quote', async () => {
    const quote = (await api.quote(tokenSwapParams())).body;
    const tampered = { tokenSwap: { ...quote.tokenSwap, outputAmount: { ...quote.tokenSwap.outputAmount, amount: '999999999' } } };
    // Sealed, on every route, whether or not quoting it again would tell: its slippage is what the user accepted.
    for (const changed of [tampered, { tokenSwap: { ...quote.tokenSwap, slippage: quote.tokenSwap.slippage + 1 } }]) {
      expect(await api.post('/v4/create-order', changed)).toMatchObject({
        status: 400,
        body: { code: 'INVALID_ORDER_ARGS', details: { message: 'signedQuoteData does not match the quote' } },
      });
    }
    const { signedQuoteData: _seal, ...unsealed } = tampered.tokenSwap;
    expect((await api.post('/v4/create-order', { tokenSwap: unsealed })).body).toMatchObject({
      code: 'INVALID_ORDER_ARGS',
      details: { message: expect.stringMatching(/^changed fields: outputAmount\.amount: sent 999999999, now \d+$/) },
    });
    const onramp = (await api.quote(onrampParams())).body.onramp;
    expect((await api.post('/v4/create-order', { onramp: { ...onramp, recipient: evmUser.toLowerCase() } })).body).toMatchObject({
      code: 'INVALID_ORDER_ARGS',
      details: { message: 'signedQuoteData does not match the quote' },
    });

    expect((await api.post('/v4/create-order', quote)).status).toBe(201);
    const duplicate = await api.post('/v4/create-order', quote);
    expect(duplicate).toMatchObject({ status: 400, body: { code: 'DUPLICATE_ORDER' } });

    const stale = (await api.quote(tokenSwapParams())).body;
    await api.post('/sandbox/advance', { seconds: 601 });
    expect((await api.post('/v4/create-order', stale)).body).toMatchObject({
      code: 'ORDER_EXPIRED',
      details: { message: expect.stringMatching(/^expired at /) },
    });
  });

  it("accepts every route's quote as a client generated from the public V4 document sends it, and refuses it changed", async () => {
    /**
     * Such a client drops null fields, and empty arrays too (Go's `omitempty`), and its offramp and
     * tokenSwap models have no signedQuoteData or ownerAddress.
     */
    const asPublicClientSends = (route: string, quote: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(quote).filter(
          ([field, value]) =>
            value !== null &&
            !(Array.isArray(value) && value.length === 0) &&
            (route === 'onramp' || !['signedQuoteData', 'ownerAddress'].includes(field)),
        ),
      );
    const withAffiliate = { affiliates: `${affiliate}:25` };
    for (const params of [
      onrampParams(withAffiliate),
      onrampParams(),
      offrampParams(withAffiliate),
      offrampParams(),
      tokenSwapParams(withAffiliate),
      tronOfframpParams(),
      solanaSwapParams(),
    ]) {
      const quote = (await api.quote(params)).body;
      const route = Object.keys(quote)[0]!;
      const sent = asPublicClientSends(route, quote[route]);
      if (!('affiliates' in params) && route !== 'tokenSwap') expect(quote[route].affiliates, route).toEqual([]);
      const output = sent.outputAmount as { amount: string };
      const changed = { ...sent, outputAmount: { ...output, amount: String(BigInt(output.amount) + 1n) } };
      const refused = await api.post('/v4/create-order', { [route]: changed });
      expect(refused, `${route} changed`).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_ARGS' } });
      const created = await api.post('/v4/create-order', { [route]: sent });
      expect(created.status, `${route}: ${JSON.stringify(created.body)}`).toBe(201);
      expect(Object.keys(created.body)).toEqual([route]);
    }
  });

  it('makes a new order of every create-order of a quote without its seal: the same swap repeated is a new swap', async () => {
    for (const params of [offrampParams(), tokenSwapParams()]) {
      const quote = (await api.quote(params)).body;
      const route = Object.keys(quote)[0]!;
      const { signedQuoteData: _seal, ownerAddress: _owner, ...unsealed } = quote[route];
      const sent = { [route]: unsealed };
      // Two at once, then a third later and a fourth through V3, all of the same values: four orders.
      const answers = await Promise.all([api.post('/v4/create-order', sent), api.post('/v4/create-order', sent)]);
      await api.post('/sandbox/advance', { seconds: 5 });
      answers.push(await api.post('/v4/create-order', sent));
      answers.push(
        await api.post('/v3/create-order', {
          [route]: { ...unsealed, ...(route === 'offramp' ? { ownerAddress: quote[route].ownerAddress } : {}) },
        }),
      );
      for (const answer of answers) expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect(new Set(answers.map((answer) => answer.body[route].order_id)).size, route).toBe(4);
    }
  });

  it('accepts on V3 every offramp and token-swap quote shaped as the described V3 models have it', async () => {
    for (const params of [offrampParams(), tokenSwapParams()]) {
      const quote = (await api.quote(params)).body;
      const route = Object.keys(quote)[0]!;
      const { signedQuoteData: _seal, refundAddress, ownerAddress: _owner, ...fields } = quote[route];
      // The V3 offramp names its owner (required); neither V3 shape has refundAddress, and a token
      // swap's sender, which it keeps, reclaims the funds. Empty affiliates are dropped, as a Go
      // client's `omitempty` drops them.
      expect(fields.sender, route).toBeTruthy();
      const v3 = route === 'offramp' ? { ...fields, ownerAddress: refundAddress } : fields;
      if (route === 'offramp') {
        expect(v3.affiliates).toEqual([]);
        delete v3.affiliates;
      }
      const answer = await api.post('/v3/create-order', { [route]: v3 });
      expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(201);
      // A value changed on the way is still refused in this shape.
      const changed = { ...v3, outputAmount: { ...v3.outputAmount, amount: String(BigInt(v3.outputAmount.amount) - 1n) } };
      const refused = await api.post('/v3/create-order', { [route]: changed });
      expect(refused, `${route}: ${JSON.stringify(refused.body)}`).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_ARGS' } });
    }
  });

  it('takes an onramp quote sent back without its refundAddress (V3 has none) with the one its seal names', async () => {
    for (const version of ['v3', 'v4']) {
      const { refundAddress, ...sent } = (await api.quote(onrampParams({ amount: version === 'v3' ? '300001' : '300002' }))).body.onramp;
      expect(refundAddress).toBe(onrampParams().refundAddress);
      const created = await api.post(`/${version}/create-order`, { onramp: sent });
      expect(created.status, `${version}: ${JSON.stringify(created.body)}`).toBe(201);
      const [order] = await server().services.db.query<{ refund_address: string }>('SELECT refund_address FROM orders WHERE id = $1', [
        created.body.onramp.order_id,
      ]);
      expect(order?.refund_address, version).toBe(refundAddress.toLowerCase());
      // Another refund address is still a changed quote.
      const changed = await api.post(`/${version}/create-order`, { onramp: { ...sent, refundAddress: btcUser } });
      expect(changed, version).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_ARGS' } });
    }
  });

  it('keeps a sealed quote valid after the price moved, and refuses an unsealed one naming what moved', async () => {
    const offramp = (await api.quote(offrampParams())).body;
    const onramp = (await api.quote(onrampParams())).body;
    const { signedQuoteData: _seal, ownerAddress: _owner, ...unsealed } = offramp.offramp;
    const btc = (await api.get('/sandbox/prices')).body.prices.find((price: { symbol: string }) => price.symbol === 'BTC');
    const moved = await api.post('/sandbox/prices', { chain: btc.chain, token: btc.token, priceUsd: '98000' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    try {
      expect((await api.post('/v4/create-order', onramp)).status).toBe(201);
      expect((await api.post('/v4/create-order', offramp)).status).toBe(201);
      const refused = await api.post('/v4/create-order', { offramp: unsealed });
      expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_ARGS' } });
      expect(refused.body.error).toMatch(/outputAmount\.amount: sent \d+, now \d+/);
      expect(refused.body.error).toMatch(/prices moved/);
      expect(refused.body.error).toMatch(/BTC on bitcoin 98000\.00 USD/);
      // A new quote at the new price is accepted unsealed.
      const fresh = (await api.quote(offrampParams())).body.offramp;
      const { signedQuoteData: _s, ownerAddress: _o, ...freshUnsealed } = fresh;
      expect(fresh.outputAmount.amount).not.toBe(offramp.offramp.outputAmount.amount);
      expect((await api.post('/v4/create-order', { offramp: freshUnsealed })).status).toBe(201);
    } finally {
      await api.post('/sandbox/prices', { chain: btc.chain, token: btc.token, priceUsd: btc.priceUsd });
    }
  });

  it('refuses a PSBT the sender cannot fund', async () => {
    const balance = String(await simulatedBalance(senderAddress));
    const answer = await api.post(
      '/v4/create-order',
      (await api.quote(onrampParams({ sender: senderAddress, amount: String(BigInt(balance) + 1000n) }))).body,
    );
    expect(answer).toMatchObject({ status: 400, body: { code: 'INSUFFICIENT_CONFIRMED_FUNDS', details: { available: balance } } });
  });

  it('accepts V4 quotes on V3 create-order by V3 rules', async () => {
    const { refundAddress: _none, ...params } = onrampParams();
    const created = await order(params, 'v3');
    expect(created.created.onramp.order_id).toBeTruthy();
    expect((await order(offrampParams(), 'v3')).created.offramp.tx.type).toBe('evm');
  });
});

describe('liquidity', () => {
  // An onramp is written in a transaction (its deposit address), a token swap in one statement (orders/queries.ts writeOrder).
  const races = [
    { route: 'onramp', params: onrampParams, chain: 'bob', token: wbtcBob, total: '3000000', each: 995500n },
    { route: 'tokenSwap', params: solanaSwapParams, chain: 'base', token: usdcBase, total: '300000000', each: 99650000n },
  ] as const;
  it.each(races)('never reserves more than the market maker holds, however many $route orders arrive at once', async (race) => {
    const sandbox = JSON.parse(readFileSync(sandboxConfigFile, 'utf8')) as GatewayConfig;
    const small = await testServer({
      config: { liquidity: sandbox.liquidity.map((entry) => (entry.token === race.token ? { ...entry, amount: race.total } : entry)) },
    });
    try {
      const smallApi = client(small.url);
      const quotes = await Promise.all(Array.from({ length: 8 }, () => smallApi.quote(race.params())));
      const answers = await Promise.all(quotes.map((quote) => smallApi.post('/v4/create-order', quote.body)));
      // Three orders fit in the total, five do not.
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
      const refused = answers.filter((answer) => answer.status === 400);
      expect(refused).toHaveLength(5);
      const left = (BigInt(race.total) - 3n * race.each).toString();
      // { limit: the liquidity left of the token the order delivers, token, chain_id }.
      for (const answer of refused)
        expect(answer.body).toMatchObject({
          code: 'INSUFFICIENT_SOLVER_BALANCE',
          details: { limit: left, token: race.token, chain_id: race.chain },
        });
      const row = (await smallApi.get('/sandbox/liquidity')).body.liquidity.find((entry: { token: string }) => entry.token === race.token);
      expect(row).toMatchObject({ total: race.total, reserved: (3n * race.each).toString() });
      // An order's quote sent again is a duplicate, though its own order took the liquidity it would need.
      const accepted = answers.findIndex((answer) => answer.status === 201);
      expect(await smallApi.post('/v4/create-order', quotes[accepted]!.body)).toMatchObject({
        status: 400,
        body: { code: 'DUPLICATE_ORDER', details: { message: answers[accepted]!.body[race.route].order_id } },
      });
    } finally {
      await small.close();
    }
  });

  it('spends the reservation on success and releases it on refund', async () => {
    const before = await liquidity('base', usdcBase);
    const refunded = await order(solanaSwapParams());
    const succeeded = await order(solanaSwapParams());
    const reserved = await liquidity('base', usdcBase);
    expect(BigInt(reserved.reserved) - BigInt(before.reserved)).toBe(2n * 99650000n);
    await api.post(`/sandbox/orders/${refunded.created.tokenSwap.order_id}/outcome`, { outcome: 'refunded' });
    await api.post(`/sandbox/orders/${succeeded.created.tokenSwap.order_id}/outcome`, { outcome: 'success' });
    const after = await liquidity('base', usdcBase);
    expect(after.reserved).toBe(before.reserved);
    expect(BigInt(before.total) - BigInt(after.total)).toBe(99650000n);
  });
});

describe('register-tx', () => {
  it('registers the signed payment of the PSBT, idempotently, and finds the order by its txid', async () => {
    const { created } = await order(onrampParams({ sender: senderAddress }));
    const raw = signPsbt(created.onramp.psbt_hex);
    const txid = bitcoin.Transaction.fromHex(raw).getId();
    const body = { onramp: { order_id: created.onramp.order_id, bitcoin_tx_hex: raw } };
    expect(await api.patch('/v4/register-tx', body)).toMatchObject({ status: 200, body: { onramp: { txid } } });
    expect(await api.patch('/v4/register-tx', body)).toMatchObject({ status: 200, body: { onramp: { txid } } });
    const found = await api.get(`/v4/get-order/${txid}`);
    expect(found).toMatchObject({ status: 200, body: { id: created.onramp.order_id, srcInfo: { txHash: txid } } });
  });

  it('refuses a PSBT, a txid, a short payment, a missing OP_RETURN, screened addresses and unknown orders', async () => {
    const { created } = await order(onrampParams({ sender: senderAddress }));
    const { order_id, address, op_return_data, psbt_hex } = created.onramp;
    const register = (hex: string, id = order_id) => api.patch('/v4/register-tx', { onramp: { order_id: id, bitcoin_tx_hex: hex } });
    expect((await register(psbt_hex)).body).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { expected: 'raw transaction', actual: 'psbt' },
    });
    expect((await register('ab'.repeat(32))).body).toMatchObject({ code: 'INVALID_REQUEST', details: { actual: 'txid' } });
    expect((await register('deadbeef')).body).toMatchObject({ code: 'INVALID_REQUEST', details: { actual: 'unparseable' } });
    expect(
      (
        await register(
          rawPayment([
            { address, value: 900000n },
            { opReturn: op_return_data, value: 0n },
          ]),
        )
      ).body,
    ).toMatchObject({
      code: 'INSUFFICIENT_PAYMENT_AMOUNT',
      details: { expected: '1000000', actual: '900000' },
    });
    expect((await register(rawPayment([{ address, value: 1000000n }]))).body).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { expected: op_return_data, actual: 'none' },
    });
    const payer = wallet('p2wpkh', 'pays a screened address');
    await api.get(`/v4/get-max-spendable/${payer.address}`);
    const screened = await register(
      await signedPayment(payer, [
        { address, value: 1000000n },
        { opReturn: op_return_data, value: 0n },
        { address: deniedAddress, value: 5000n },
      ]),
    );
    expect(screened.status).toBe(400);
    expect(screened.body).toEqual(documentedExample('registerTxV4', '400', 'NON_COMPLIANT_ADDRESSES'));
    const unknown = await register(rawPayment([{ address, value: 1000000n }]), '00000000-0000-4000-8000-000000000000');
    expect(unknown).toMatchObject({ status: 400, body: { code: 'ORDER_NOT_FOUND' } });
    expect((await api.patch('/v4/register-tx', { onramp: { order_id, bitcoin_txid: 'ab'.repeat(32) } })).body.code).toBe('INVALID_REQUEST');
  });
});

describe('lifecycle', () => {
  it('settles an onramp after its payment confirms', async () => {
    const { created } = await order(onrampParams({ sender: senderAddress }));
    const id = created.onramp.order_id;
    await api.patch('/v4/register-tx', { onramp: { order_id: id, bitcoin_tx_hex: signPsbt(created.onramp.psbt_hex) } });
    await api.post('/sandbox/advance', { seconds: 10 });
    expect((await api.get(`/v4/get-order/${id}`)).body.status).toEqual({ inProgress: { pending_btc_payment: null, refund_tx: null } });
    await api.post('/sandbox/advance', { seconds: 30 });
    const settled = (await api.get(`/v4/get-order/${id}`)).body;
    expect(settled.status.success.received_tokens).toEqual([
      {
        chain: 'bob',
        token: wbtcBob,
        amount: settled.dstInfo.amount,
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        usd: settled.dstInfo.usd,
      },
    ]);
    expect(settled.estimatedTimeInSecs).toBe(0);
  });

  it('shows an offramp payout pending, then settles it; the order is found by its source hash', async () => {
    const { created } = await order(offrampParams());
    const id = created.offramp.order_id;
    const sourceHash = `0x${'ab'.repeat(32)}`;
    expect((await api.post(`/sandbox/orders/${id}/source-sent`, { txHash: sourceHash })).body.srcInfo.txHash).toBe(sourceHash);
    await api.post('/sandbox/advance', { seconds: 31 });
    const pending = (await api.get(`/v3/get-order/${sourceHash.toUpperCase().replace('0X', '0x')}`)).body;
    expect(pending.id).toBe(id);
    expect(pending.status.inProgress.pending_btc_payment).toEqual({
      txid: expect.stringMatching(/^[0-9a-f]{64}$/),
      amount: pending.dstInfo.amount,
      usd: pending.dstInfo.usd,
    });
    await api.post('/sandbox/advance', { seconds: 31 });
    const settled = (await api.get(`/v4/get-order/${id}`)).body;
    expect(settled.status.success.received_tokens[0]).toMatchObject({
      chain: 'bitcoin',
      txHash: pending.status.inProgress.pending_btc_payment.txid,
    });
  });

  it('reaches failed and refunded when the sandbox forces them, and only from inProgress', async () => {
    const failed = (await order(tokenSwapParams())).created.tokenSwap.order_id;
    const refunded = (await order(tokenSwapParams())).created.tokenSwap.order_id;
    expect((await api.post(`/sandbox/orders/${failed}/outcome`, { outcome: 'failed', reason: 'aggregator reverted' })).body.status).toEqual(
      { failed: { reason: 'aggregator reverted' } },
    );
    const refund = (await api.post(`/sandbox/orders/${refunded}/outcome`, { outcome: 'refunded' })).body;
    expect(refund.status.refunded.refunded_tokens).toEqual([
      {
        chain: 'base',
        token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: '250000000',
        txHash: expect.stringMatching(/^0x/),
        usd: '250.00',
      },
    ]);
    expect((await api.post(`/sandbox/orders/${failed}/outcome`, { outcome: 'success' })).status).toBe(409);
    expect((await api.post(`/sandbox/orders/${failed}/outcome`, { outcome: 'maybe' })).status).toBe(400);
    expect((await api.get('/v4/get-order/00000000-0000-4000-8000-000000000000')).body).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });
});

describe('get-orders', () => {
  it('pages newest first with opaque cursors that stay stable while orders arrive', async () => {
    const user = '0x1111111111111111111111111111111111111111';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await order(tokenSwapParams({ recipient: user }))).created.tokenSwap.order_id);
    const first = await api.get(`/v4/get-orders/${user}?limit=2`);
    expect(first.body.orders.map((entry: { id: string }) => entry.id)).toEqual([ids[4], ids[3]]);
    // An order created between two pages does not shift the next page.
    await order(tokenSwapParams({ recipient: user }));
    const second = await api.get(`/v3/get-orders/${user}?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.orders.map((entry: { id: string }) => entry.id)).toEqual([ids[2], ids[1]]);
    const third = await api.get(`/v4/get-orders/${user}?limit=2&cursor=${encodeURIComponent(second.body.nextCursor)}`);
    expect(third.body.orders.map((entry: { id: string }) => entry.id)).toEqual([ids[0]]);
    expect(third.body.nextCursor).toBeNull();
  });

  it('keeps the order when sequence numbers gain a digit (9 → 10, 99 → 100), as on a long-lived store', async () => {
    const user = '0x3333333333333333333333333333333333333333';
    // The next orders get sequence numbers that gain a digit (…98, …99, 1…00, 1…01): compared as
    // text, "99" sorts after "101".
    const [{ last }] = (await server().services.db.query<{ last: string }>(`SELECT last_value::text AS last FROM orders_seq_seq`)) as [
      { last: string },
    ];
    await server().services.db.query(`SELECT setval('orders_seq_seq', $1)`, [10 ** (last.length + 1) - 3]);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await order(tokenSwapParams({ recipient: user }))).created.tokenSwap.order_id);
    const newestFirst = [...ids].reverse();
    expect((await api.get(`/v4/get-orders/${user}`)).body.orders.map((entry: { id: string }) => entry.id)).toEqual(newestFirst);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await api.get(`/v4/get-orders/${user}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      paged.push(...page.body.orders.map((entry: { id: string }) => entry.id));
      cursor = page.body.nextCursor;
    } while (cursor && paged.length <= ids.length);
    expect(paged).toEqual(newestFirst);
  });

  it('finds the orders of a bech32 address written in upper case, as QR codes write it, under either case', async () => {
    const recipient = wallet('p2wpkh', 'upper-case recipient').address;
    const id = (await order(offrampParams({ recipient: recipient.toUpperCase() }))).created.offramp.order_id;
    for (const written of [recipient, recipient.toUpperCase()])
      expect((await api.get(`/v4/get-orders/${written}`)).body.orders.map((entry: { id: string }) => entry.id)).toEqual([id]);
  });

  it('finds an order that keeps the upper-case bech32 address it was written with before addresses were lower-cased', async () => {
    const recipient = wallet('p2wpkh', 'upper-case recipient of an older build').address;
    const id = (await order(offrampParams({ recipient }))).created.offramp.order_id;
    // The row as a build before normalizeAddress wrote it.
    await server().services.db.query('UPDATE orders SET recipient = $1 WHERE id = $2', [recipient.toUpperCase(), id]);
    for (const written of [recipient, recipient.toUpperCase()])
      expect((await api.get(`/v4/get-orders/${written}`)).body.orders.map((entry: { id: string }) => entry.id)).toEqual([id]);
  });

  it('refuses a tampered cursor, a cursor of another address and a limit above the maximum', async () => {
    const user = '0x2222222222222222222222222222222222222222';
    await order(tokenSwapParams({ recipient: user }));
    await order(tokenSwapParams({ recipient: user }));
    const { nextCursor } = (await api.get(`/v4/get-orders/${user}?limit=1`)).body;
    const [payload, mac] = nextCursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ a: user, s: '1' })).toString('base64url')}.${mac}`;
    expect((await api.get(`/v4/get-orders/${user}?cursor=${forged}`)).body).toMatchObject({ code: 'INVALID_CURSOR' });
    expect((await api.get(`/v4/get-orders/${user}?cursor=${payload}.${mac}x`)).body.code).toBe('INVALID_CURSOR');
    expect((await api.get(`/v4/get-orders/${evmUser}?cursor=${nextCursor}`)).body.code).toBe('INVALID_CURSOR');
    expect((await api.get(`/v4/get-orders/${user}?limit=101`)).body).toEqual(
      documentedExample('getOrdersV4', '400', 'INVALID_REQUEST_ABOVE_MAX'),
    );
  });

  it('answers what a Bitcoin address can spend in the public GatewayMaxSpendable shape, and refuses anything else', async () => {
    const balance = await simulatedBalance(senderAddress);
    expect(balance).toBeGreaterThanOrEqual(2500000n);
    const { body } = await api.get(`/v4/get-max-spendable/${senderAddress}`);
    expect(body).toEqual({
      userAddress: senderAddress,
      amount: { address: '0x0000000000000000000000000000000000000000', amount: expect.stringMatching(/^[0-9]+$/), chain: 'bitcoin' },
    });
    // The balance less the fee of spending its three UTXOs at 12 sat/vB (a few hundred vbytes).
    const fee = balance - BigInt(body.amount.amount);
    expect(fee).toBeGreaterThan(12n * 200n);
    expect(fee).toBeLessThan(12n * 500n);
    // The address in upper case (BIP 173 allows it) is the same script, with the same outputs.
    const upperCase = await api.get(`/v4/get-max-spendable/${senderAddress.toUpperCase()}`);
    expect(upperCase.body.amount).toEqual(body.amount);
    expect((await api.get(`/v4/get-max-spendable/${evmUser}`)).body).toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
