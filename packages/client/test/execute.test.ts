/**
 * executeQuote end to end against the sandbox gateway server, nothing in between: the client over
 * HTTP, real keys signing (bitcoinjs-lib, viem, @solana/web3.js), the server verifying Bitcoin
 * signatures before it broadcasts. Only the chains' broadcast is the sandbox's: register-tx for
 * Bitcoin, and the source-sent control for the EVM and Solana transactions.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { VersionedTransaction } from '@solana/web3.js';
import { startServer, type RunningServer } from '@swap-gateway/server';
import { sandboxControls, sandboxServerOptions, type SandboxControls } from '@swap-gateway/test-support/sandbox';
import bs58 from 'bs58';
import * as bitcoin from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWalletClient, custom, keccak256, parseTransaction, recoverTransactionAddress, type Chain, type Hex } from 'viem';
import { base, mainnet } from 'viem/chains';
import { bitcoinjsSigner } from '../src/adapters/bitcoinjs.js';
import { solanaSigner } from '../src/adapters/solana-web3.js';
import { viemSender } from '../src/adapters/viem.js';
import {
  GatewayApiError,
  GatewayTimeoutError,
  OrderExecutionError,
  createGatewayClient,
  decodeSolanaTransaction,
  executeQuote,
  registeredTxid,
  routeOf,
  stateOf,
  type ExecutionProgress,
  type GatewayClient,
  type GatewayQuoteParamsV4,
  type TronTransaction,
} from '../src/index.js';
import { failure } from './support/failure.js';
import {
  bitcoinKey,
  bitcoinRoot,
  btcRecipient,
  evmAccount,
  onrampQuoteParams,
  solanaKeypair,
  tokens,
  tronAccount,
} from './support/sandbox.js';

// Each test runs several requests against a server with a WASM database, on a 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

let server: RunningServer;
let sandbox: SandboxControls;
let gateway: GatewayClient;

// The server opens its embedded database and migrates it first: slow on a loaded machine.
beforeAll(async () => {
  server = await startServer(sandboxServerOptions('drivenByTest'));
  sandbox = sandboxControls(server.url);
  gateway = createGatewayClient({ baseUrl: server.url });
}, 60_000);
afterAll(() => server.close());

const wait = { intervalMs: 20, timeoutMs: 20_000 };

/** Records the progress events, and settles the sandbox once the source transaction is in. */
function progressRecorder() {
  const events: ExecutionProgress[] = [];
  let settling: Promise<void> | undefined;
  return {
    events,
    onProgress(event: ExecutionProgress) {
      events.push(event);
      if (event.type === 'registered' || event.type === 'sent') settling = sandbox.settle();
    },
    settled: () => settling,
  };
}

// The sandbox's UTXO listing stands in for the wallet's indexer.
const sandboxUtxos = (address: string) => sandbox.bitcoinUtxos(address);
/** A wallet from an HD node (BIP 84 path by default), and one from a key. */
const bitcoinWallet = bitcoinjsSigner({ hdNode: bitcoinRoot, utxos: sandboxUtxos, feeRate: 12 });
const keyWallet = bitcoinjsSigner({ key: bitcoinKey, utxos: sandboxUtxos, feeRate: 12 });

const onrampParams = (extra: Partial<GatewayQuoteParamsV4> = {}): GatewayQuoteParamsV4 => ({
  ...onrampQuoteParams(bitcoinWallet.address),
  ...extra,
});

const offrampParams: GatewayQuoteParamsV4 = {
  srcChain: 'ethereum',
  dstChain: 'bitcoin',
  srcToken: tokens.wbtcEthereum,
  dstToken: tokens.btc,
  amount: '5000000',
  recipient: btcRecipient,
  sender: evmAccount.address,
  refundAddress: evmAccount.address,
};

const solanaParams: GatewayQuoteParamsV4 = {
  srcChain: 'solana',
  dstChain: 'base',
  srcToken: tokens.usdcSolana,
  dstToken: tokens.usdcBase,
  amount: '100000000',
  recipient: evmAccount.address,
  sender: solanaKeypair.publicKey.toBase58(),
  refundAddress: solanaKeypair.publicKey.toBase58(),
};

/** The witness public keys of a raw transaction's inputs. */
const inputKeys = (hex: string) => bitcoin.Transaction.fromHex(hex).ins.map((input) => Buffer.from(input.witness[1]!).toString('hex'));
const broadcasts = () => (server.services.bitcoin as unknown as { broadcasts: string[] }).broadcasts;
const orderIdOf = (events: ExecutionProgress[]) => events[0]!.orderId;

/**
 * A viem wallet client of the test account whose node is the sandbox: it answers what viem asks to
 * prepare a transaction, and broadcasting the signed transaction tells the sandbox's indexer of it
 * (source-sent with the transaction's hash). `orderId` says which order the transaction is for.
 */
function sandboxWalletClient(orderId: () => string, sent: Hex[], chain: Chain = mainnet) {
  const answers: Record<string, unknown> = {
    eth_chainId: `0x${chain.id.toString(16)}`,
    eth_getTransactionCount: '0x0',
    eth_estimateGas: '0x30d40',
    eth_maxPriorityFeePerGas: '0x3b9aca00',
    eth_getBlockByNumber: { number: '0x1', hash: `0x${'11'.repeat(32)}`, timestamp: '0x0', baseFeePerGas: '0x3b9aca00', transactions: [] },
  };
  return createWalletClient({
    account: evmAccount,
    chain,
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method === 'eth_sendRawTransaction') {
          const raw = (params as [Hex])[0];
          sent.push(raw);
          const txHash = keccak256(raw);
          await sandbox.sourceSent(orderId(), txHash);
          return txHash;
        }
        if (!(method in answers)) throw new Error(`the sandbox node does not answer ${method}`);
        return answers[method];
      },
    }),
  });
}

describe('onramp paid from a bitcoinjs key that owns sandbox UTXOs', () => {
  it.each([
    ['an HD node', bitcoinWallet, bitcoinRoot.derivePath("m/84'/0'/0'/0/0").publicKey],
    ['a key', keyWallet, bitcoinKey.publicKey],
  ] as const)(
    'signs with %s the PSBT of a quote that names the wallet as sender; the server verifies and broadcasts it; it settles',
    async (_, wallet, publicKey) => {
      const quote = await gateway.getQuote(onrampParams({ sender: wallet.address, refundAddress: wallet.address }));
      const progress = progressRecorder();
      const order = await executeQuote(gateway, quote, { signer: { bitcoin: wallet }, onProgress: progress.onProgress, wait });
      await progress.settled();

      const orderId = orderIdOf(progress.events);
      expect(progress.events.map((event) => event.type)).toEqual([
        'created',
        'signed',
        'registered',
        ...progress.events.slice(3).map(() => 'status'),
      ]);
      expect(progress.events.every((event) => event.orderId === orderId)).toBe(true);
      const created = progress.events[0] as Extract<ExecutionProgress, { type: 'created' }>;
      expect(routeOf(created.order).route).toBe('onramp');
      expect((created.order as { onramp: { psbt_hex?: string | null } }).onramp.psbt_hex).toMatch(/^70736274ff/);

      expect(order.id).toBe(orderId);
      expect(stateOf(order).state).toBe('success');
      const { txid } = progress.events[2] as Extract<ExecutionProgress, { type: 'registered' }>;
      expect(order.srcInfo.txHash).toBe(txid);
      const broadcast = broadcasts().find((hex) => bitcoin.Transaction.fromHex(hex).getId() === txid)!;
      expect(inputKeys(broadcast).every((key) => key === Buffer.from(publicKey).toString('hex'))).toBe(true);
    },
  );

  it('builds, signs and pays the deposit address with the OP_RETURN when the quote named no sender; it settles', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const progress = progressRecorder();
    const order = await executeQuote(gateway, quote, { signer: { bitcoin: bitcoinWallet }, onProgress: progress.onProgress, wait });
    await progress.settled();

    const created = (progress.events[0] as Extract<ExecutionProgress, { type: 'created' }>).order as {
      onramp: { address: string; op_return_data: string; psbt_hex?: string | null };
    };
    expect(created.onramp.psbt_hex ?? null).toBeNull();
    expect(stateOf(order).state).toBe('success');
    const { txid } = progress.events.find((event) => event.type === 'registered') as Extract<ExecutionProgress, { type: 'registered' }>;
    const paid = bitcoin.Transaction.fromHex(broadcasts().find((hex) => bitcoin.Transaction.fromHex(hex).getId() === txid)!);
    const deposit = bitcoin.address.toOutputScript(created.onramp.address);
    expect(paid.outs.find((output) => Buffer.from(output.script).equals(Buffer.from(deposit)))!.value).toBe(
      BigInt((quote as { onramp: { inputAmount: { amount: string } } }).onramp.inputAmount.amount),
    );
    expect(paid.outs.some((output) => Buffer.from(output.script).toString('hex').endsWith(created.onramp.op_return_data))).toBe(true);
  });
});

describe('offramp with the viem adapter', () => {
  it('hands the decoded transaction to the wallet client, which signs it and broadcasts through the sandbox; it settles', async () => {
    const quote = await gateway.getQuote(offrampParams);
    const progress = progressRecorder();
    const sent: Hex[] = [];
    const walletClient = sandboxWalletClient(() => orderIdOf(progress.events), sent);
    const order = await executeQuote(gateway, quote, { signer: { evm: viemSender(walletClient) }, onProgress: progress.onProgress, wait });
    await progress.settled();

    const created = (progress.events[0] as Extract<ExecutionProgress, { type: 'created' }>).order as {
      offramp: { tx: { to: string; data: string; value: string } };
    };
    expect(progress.events.map((event) => event.type).slice(0, 2)).toEqual(['created', 'sent']);
    expect(sent).toHaveLength(1);
    const transaction = parseTransaction(sent[0]!);
    expect(transaction.to!.toLowerCase()).toBe(created.offramp.tx.to.toLowerCase());
    expect(transaction.data).toBe(created.offramp.tx.data);
    expect(transaction.value ?? 0n).toBe(BigInt(created.offramp.tx.value));
    expect(await recoverTransactionAddress({ serializedTransaction: sent[0]! as never })).toBe(evmAccount.address);
    const { txHash } = progress.events[1] as Extract<ExecutionProgress, { type: 'sent' }>;
    expect(order.srcInfo.txHash).toBe(txHash);
    expect(stateOf(order).state).toBe('success');
  });
});

describe('offramp from Tron with a TronSender of the app', () => {
  it('gets the transaction with bigint value and fee limit, and its broadcast settles the order', async () => {
    const { sender: _evmSender, ...withoutSender } = offrampParams;
    const quote = await gateway.getQuote({
      ...withoutSender,
      srcChain: 'tron',
      srcToken: tokens.usdtTron,
      amount: '500000000',
      refundAddress: tronAccount,
    });
    const progress = progressRecorder();
    const received: TronTransaction[] = [];
    const tron = {
      async sendTransaction(transaction: TronTransaction) {
        received.push(transaction);
        // A Tron transaction id: 32 bytes of hex, here a hash of what would be signed.
        const txid = createHash('sha256').update(transaction.data).digest('hex');
        await sandbox.sourceSent(orderIdOf(progress.events), txid);
        return txid;
      },
    };
    const order = await executeQuote(gateway, quote, { signer: { tron }, onProgress: progress.onProgress, wait });
    await progress.settled();

    const created = (progress.events[0] as Extract<ExecutionProgress, { type: 'created' }>).order as {
      offramp: { tx: { type: 'tron'; to: string; data: string; value: string; feeLimit: string } };
    };
    const { tx } = created.offramp;
    expect(received).toEqual([{ to: tx.to, data: tx.data, value: BigInt(tx.value), feeLimit: BigInt(tx.feeLimit) }]);
    expect(order.srcInfo.txHash).toBe((progress.events[1] as Extract<ExecutionProgress, { type: 'sent' }>).txHash);
    expect(stateOf(order).state).toBe('success');
  });
});

describe('token swap from Solana signed by a @solana/web3.js Keypair', () => {
  it.each([
    ['the Keypair', { keypair: solanaKeypair }],
    [
      "a wallet's signTransaction",
      {
        async signTransaction(transaction: VersionedTransaction) {
          transaction.sign([solanaKeypair]);
          return transaction;
        },
      },
    ],
  ] as const)(
    'signs the decoded message with %s, the signature verifies, and it broadcasts through the sandbox; it settles',
    async (_, signWith) => {
      const quote = await gateway.getQuote(solanaParams);
      const progress = progressRecorder();
      const sent: VersionedTransaction[] = [];
      const connection = {
        async sendRawTransaction(raw: Uint8Array | Buffer | number[]) {
          const transaction = VersionedTransaction.deserialize(Uint8Array.from(raw));
          sent.push(transaction);
          const signature = bs58.encode(transaction.signatures[0]!);
          await sandbox.sourceSent(orderIdOf(progress.events), signature);
          return signature;
        },
      };
      const order = await executeQuote(gateway, quote, {
        signer: { solana: solanaSigner({ connection, ...signWith }) },
        onProgress: progress.onProgress,
        wait,
      });
      await progress.settled();

      const created = (progress.events[0] as Extract<ExecutionProgress, { type: 'created' }>).order as {
        tokenSwap: { tx: { type: 'solana'; chainId: number; transaction: string } };
      };
      const unsigned = VersionedTransaction.deserialize(decodeSolanaTransaction(created.tokenSwap.tx));
      const [signed] = sent;
      expect(Buffer.from(signed!.message.serialize()).equals(Buffer.from(unsigned.message.serialize()))).toBe(true);
      // Ed25519 over the message bytes, with the keypair's public key (the transaction's fee payer).
      const publicKey = createPublicKey({
        key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), solanaKeypair.publicKey.toBuffer()]),
        format: 'der',
        type: 'spki',
      });
      expect(signed!.message.staticAccountKeys[0]!.equals(solanaKeypair.publicKey)).toBe(true);
      expect(verify(null, signed!.message.serialize(), publicKey, signed!.signatures[0]!)).toBe(true);
      expect(order.srcInfo.txHash).toBe(bs58.encode(signed!.signatures[0]!));
      expect(stateOf(order).state).toBe('success');
    },
  );
});

describe('walletless', () => {
  it('returns the onramp payment and the order id; paying it later and following the order settles it', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const events: ExecutionProgress[] = [];
    const request = await executeQuote(gateway, quote, { onProgress: (event) => events.push(event) });
    if (request.route !== 'onramp') throw new Error('expected an onramp');
    const created = (events[0] as Extract<ExecutionProgress, { type: 'created' }>).order as {
      onramp: { order_id: string; address: string; op_return_data: string };
    };
    expect(events.map((event) => event.type)).toEqual(['created']);
    expect(request).toEqual({
      route: 'onramp',
      orderId: created.onramp.order_id,
      address: created.onramp.address,
      amount: BigInt((quote as { onramp: { inputAmount: { amount: string } } }).onramp.inputAmount.amount),
      opReturnData: created.onramp.op_return_data,
      psbtHex: null,
    });
    expect(stateOf(await gateway.getOrder(request.orderId)).state).toBe('inProgress');

    // The user's own wallet pays it (here the bitcoinjs signer, outside executeQuote).
    const hex = await bitcoinWallet.signPayment(request);
    await gateway.registerTx({ onramp: { order_id: request.orderId, bitcoin_tx_hex: hex } });
    await sandbox.settle();
    expect(stateOf(await gateway.waitForOrder(request.orderId, wait)).state).toBe('success');
  });

  it('returns the offramp transaction to sign, as create-order gave it', async () => {
    const request = await executeQuote(gateway, await gateway.getQuote(offrampParams));
    if (request.route === 'onramp') throw new Error('expected an offramp');
    expect(request.route).toBe('offramp');
    expect(request.tx).toMatchObject({
      type: 'evm',
      chain: 'ethereum',
      to: expect.stringMatching(/^0x/),
      data: expect.stringMatching(/^0x/),
    });
    expect((await gateway.getOrder(request.orderId)).id).toBe(request.orderId);
  });
});

describe('every step after create-order that fails carries the order id', () => {
  /** The OrderExecutionError of a call, checked against the order it names. */
  async function executionFailure(call: (events: ExecutionProgress[]) => Promise<unknown>) {
    const events: ExecutionProgress[] = [];
    const error = await failure(call(events));
    expect(error).toBeInstanceOf(OrderExecutionError);
    const { orderId } = error as OrderExecutionError;
    expect(orderId).toBe(orderIdOf(events));
    expect((error as Error).message).toContain(orderId);
    // The order exists on the server: it can be followed or paid again.
    expect((await gateway.getOrder(orderId)).id).toBe(orderId);
    return error as OrderExecutionError;
  }

  it('sign: the wallet refuses', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const refused = new Error('user rejected the request');
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { bitcoin: { signPayment: () => Promise.reject(refused) } },
        onProgress: (event) => events.push(event),
      }),
    );
    expect(error).toMatchObject({ step: 'sign', cause: refused });
  });

  it('send: no sender for the source chain', async () => {
    const quote = await gateway.getQuote(offrampParams);
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, { signer: { bitcoin: bitcoinWallet }, onProgress: (event) => events.push(event) }),
    );
    expect(error.step).toBe('send');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('register: the gateway refuses a payment whose signature does not verify', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const forger = {
      async signPayment(payment: Parameters<typeof bitcoinWallet.signPayment>[0]) {
        const transaction = bitcoin.Transaction.fromHex(await bitcoinWallet.signPayment(payment));
        const [signature, key] = transaction.ins[0]!.witness;
        signature![10] = signature![10]! ^ 0xff;
        transaction.setWitness(0, [signature!, key!]);
        return transaction.toHex();
      },
    };
    const before = broadcasts().length;
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, { signer: { bitcoin: forger }, onProgress: (event) => events.push(event) }),
    );
    expect(error.step).toBe('register');
    expect(error.cause).toBeInstanceOf(GatewayApiError);
    expect((error.cause as GatewayApiError).status).toBe(400);
    expect(broadcasts()).toHaveLength(before);
  });

  it('send: the EVM node refuses the transaction', async () => {
    const quote = await gateway.getQuote(offrampParams);
    const walletClient = createWalletClient({
      account: evmAccount,
      chain: mainnet,
      transport: custom({ request: () => Promise.reject(new Error('node unreachable')) }),
    });
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, { signer: { evm: viemSender(walletClient) }, onProgress: (event) => events.push(event) }),
    );
    expect(error.step).toBe('send');
  });

  it('send: the viem wallet client is on another chain than the order, and nothing is sent', async () => {
    const quote = await gateway.getQuote(offrampParams);
    const sent: Hex[] = [];
    let orderId = '';
    const walletClient = sandboxWalletClient(() => orderId, sent, base);
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { evm: viemSender(walletClient) },
        onProgress: (event) => {
          events.push(event);
          orderId = event.orderId;
        },
      }),
    );
    expect(error.step).toBe('send');
    expect((error.cause as Error).message).toContain('chain id 1');
    expect(sent).toEqual([]);
  });

  it('an abort while the wallet broadcasts: the step is past send, the error carries the hash and the sent event came', async () => {
    const quote = await gateway.getQuote(offrampParams);
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const txHash = `0x${'ab'.repeat(32)}`;
    const evm = {
      async sendTransaction() {
        controller.abort(reason);
        return txHash;
      },
    };
    let events: ExecutionProgress[] = [];
    const error = await executionFailure((recorded) => {
      events = recorded;
      return executeQuote(gateway, quote, { signer: { evm }, signal: controller.signal, onProgress: (event) => recorded.push(event) });
    });
    expect(error).toMatchObject({ step: 'wait', cause: reason, txHash, signedTransactionHex: undefined });
    expect(events.map((event) => event.type)).toEqual(['created', 'sent']);
  });

  it('an onProgress that throws on sent: the step is past send and the error carries the hash', async () => {
    const quote = await gateway.getQuote(offrampParams);
    const txHash = `0x${'cd'.repeat(32)}`;
    const broken = new Error('progress handler bug');
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { evm: { sendTransaction: async () => txHash } },
        onProgress(event) {
          events.push(event);
          if (event.type === 'sent') throw broken;
        },
      }),
    );
    expect(error).toMatchObject({ step: 'wait', cause: broken, txHash });
  });

  it('an abort while the wallet signs an onramp: the step is register, the error carries the signed transaction, nothing is registered', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const signPayment = async (payment: Parameters<typeof bitcoinWallet.signPayment>[0]) => {
      const hex = await bitcoinWallet.signPayment(payment);
      controller.abort(reason);
      return hex;
    };
    const before = broadcasts().length;
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { bitcoin: { signPayment } },
        signal: controller.signal,
        onProgress: (event) => events.push(event),
      }),
    );
    expect(error).toMatchObject({ step: 'register', cause: reason, txHash: undefined });
    expect(bitcoin.Transaction.fromHex(error.signedTransactionHex!).outs.length).toBeGreaterThan(0);
    expect(broadcasts()).toHaveLength(before);
  });

  it('an onProgress that throws on signed: the step is register and the signed transaction can still be registered', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const broken = new Error('progress handler bug');
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { bitcoin: bitcoinWallet },
        onProgress(event) {
          events.push(event);
          if (event.type === 'signed') throw broken;
        },
      }),
    );
    expect(error).toMatchObject({ step: 'register', cause: broken });
    const registered = await gateway.registerTx({ onramp: { order_id: error.orderId, bitcoin_tx_hex: error.signedTransactionHex! } });
    expect(registeredTxid(registered)).toBe(bitcoin.Transaction.fromHex(error.signedTransactionHex!).getId());
  });

  it('wait: the order is not settled in time, and the last order read is kept', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { bitcoin: bitcoinWallet },
        onProgress: (event) => events.push(event),
        // Long enough for the first read on a loaded machine, which the deadline would otherwise cut
        // off (it ends a read in flight too); the order cannot settle, its lifecycle driven by the test.
        wait: { intervalMs: 20, timeoutMs: 2000 },
      }),
    );
    expect(error.step).toBe('wait');
    expect(error.cause).toBeInstanceOf(GatewayTimeoutError);
    expect(stateOf((error.cause as GatewayTimeoutError).lastOrder!).state).toBe('inProgress');
  });

  it('wait: the caller aborts, and the cause is the signal reason', async () => {
    const quote = await gateway.getQuote(onrampParams());
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const error = await executionFailure((events) =>
      executeQuote(gateway, quote, {
        signer: { bitcoin: bitcoinWallet },
        signal: controller.signal,
        wait: { intervalMs: 20 },
        onProgress(event) {
          events.push(event);
          if (event.type === 'status') controller.abort(reason);
        },
      }),
    );
    expect(error).toMatchObject({ step: 'wait', cause: reason });
  });
});
