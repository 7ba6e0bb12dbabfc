/** Test servers (embedded store in memory or in a directory, no background loop) and request helpers. */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIP32Factory } from 'bip32';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';
import type { ErrorBody } from '@swap-gateway/openapi';
import { startPostgres, type PostgresBinaries } from '@swap-gateway/test-support/postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { startServer, type RunningServer, type StartServerOptions } from '../src/index.js';
import type { Database } from '../src/store/database.js';
import { openStore, type Store } from '../src/store/open-store.js';
import { bundledDocument } from '../src/http/document.js';

export const btc = '0x0000000000000000000000000000000000000000';
export const wbtcBob = '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3';
export const wbtcEthereum = '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599';
export const usdcBase = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const usdcEthereum = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
export const usdcSolana = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const usdtTron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const wethBase = '0x4200000000000000000000000000000000000006';
export const evmUser = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
export const btcUser = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const tronUser = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const solanaUser = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
export const affiliate = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
export const deniedAddress = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

/** The example `name` (an error's is named by its code) of an operation's `status`: an answer the server is held to word for word. */
export function documentedExample<Body = ErrorBody>(operationId: string, status: string, name: string): Body {
  const operation = bundledDocument().operations.find((candidate) => candidate.operationId === operationId);
  const response = operation?.responses[status] as { content?: Record<string, { examples?: Record<string, { value?: Body }> }> };
  const example = response?.content?.['application/json']?.examples?.[name]?.value;
  if (!example) throw new Error(`${operationId} documents no ${status} example ${name}`);
  return example;
}

/** A Bitcoin wallet the tests hold the key of: it signs the PSBTs the server builds for it. */
export const senderKey = BIP32Factory(ecc).fromSeed(createHash('sha256').update('server tests sender').digest());
export const senderAddress = bitcoin.payments.p2wpkh({ pubkey: senderKey.publicKey }).address!;

export async function testServer(options: StartServerOptions = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    dataDir: ':memory:',
    ...options,
    config: {
      ...options.config,
      lifecycle: { confirmationDelaySeconds: 30, payoutDelaySeconds: 30, tickMs: 0, ...options.config?.lifecycle },
    },
  });
}

/**
 * A new embedded data directory, migrated and empty: a copy of the run's template (global-setup.ts)
 * in a temporary directory, which the caller removes.
 */
export function freshDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-store-'));
  cpSync(inject('storeTemplate'), dataDir, { recursive: true });
  return dataDir;
}

/**
 * One test server for the tests of the file or describe block that calls this: started before
 * them, closed after. `api` may be used at once (it reads the address when it calls).
 */
export function testServerPerSuite(options: StartServerOptions = {}) {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await testServer(options);
  });
  afterAll(() => running?.close());
  const server = (): RunningServer => {
    if (!running) throw new Error('the test server starts in beforeAll');
    return running;
  };
  return { server, api: client(() => server().url) };
}

/**
 * One in-memory store for the test servers of the file or describe block that calls this (passed
 * as `database`), opened before its tests and closed after: an embedded start costs about 2 s of
 * CPU, and servers whose tests read nothing another's writes change need no store of their own.
 */
export function sharedStorePerSuite(): () => Database {
  let opened: Store | undefined;
  beforeAll(async () => {
    opened = await openStore({});
  });
  afterAll(() => opened?.close());
  return () => {
    if (!opened) throw new Error('the shared store opens in beforeAll');
    return ownView(opened.db);
  };
}

/** A running test server's database, for another test server to share while the first runs (the other's close leaves it open). */
export const databaseOf = (server: RunningServer): Database => ownView(server.services.db);

/**
 * Each server gets a database object of its own over the one engine: a test that wraps its server's
 * queries (to count them) leaves the other servers' alone.
 */
const ownView = (db: Database): Database => ({ ...db });

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function client(url: string | (() => string), headers: Record<string, string> = {}) {
  const address = typeof url === 'string' ? () => url : url;
  const call = async <T = any>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Answer<T>> => {
    const response = await fetch(address() + path, {
      method,
      headers: { ...headers, ...extra, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
  return {
    get: <T = any>(path: string, extra?: Record<string, string>) => call<T>('GET', path, undefined, extra),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body),
    patch: <T = any>(path: string, body?: unknown) => call<T>('PATCH', path, body),
    call,
    quote: (params: Record<string, string>) => call('GET', `/v4/get-quote?${new URLSearchParams(params)}`),
  };
}

export const onrampParams = (extra: Record<string, string> = {}) => ({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: btc,
  dstToken: wbtcBob,
  amount: '1000000',
  recipient: evmUser,
  refundAddress: senderAddress,
  ...extra,
});

export const offrampParams = (extra: Record<string, string> = {}) => ({
  srcChain: 'ethereum',
  dstChain: 'bitcoin',
  srcToken: wbtcEthereum,
  dstToken: btc,
  amount: '5000000',
  recipient: btcUser,
  sender: evmUser,
  refundAddress: evmUser,
  ...extra,
});

export const tronOfframpParams = (extra: Record<string, string> = {}) => ({
  srcChain: 'tron',
  dstChain: 'bitcoin',
  srcToken: usdtTron,
  dstToken: btc,
  amount: '500000000',
  recipient: btcUser,
  refundAddress: tronUser,
  ...extra,
});

export const tokenSwapParams = (extra: Record<string, string> = {}) => ({
  srcChain: 'base',
  dstChain: 'ethereum',
  srcToken: usdcBase,
  dstToken: usdcEthereum,
  amount: '250000000',
  recipient: evmUser,
  sender: evmUser,
  refundAddress: evmUser,
  ...extra,
});

export const solanaSwapParams = (extra: Record<string, string> = {}) => ({
  srcChain: 'solana',
  dstChain: 'base',
  srcToken: usdcSolana,
  dstToken: usdcBase,
  amount: '100000000',
  recipient: evmUser,
  refundAddress: solanaUser,
  ...extra,
});

/** Signs and finalizes a PSBT the server built for the test sender; returns the raw transaction hex. */
export function signPsbt(psbtHex: string): string {
  const psbt = bitcoin.Psbt.fromHex(psbtHex);
  psbt.signAllInputs(senderKey);
  psbt.finalizeAllInputs();
  return psbt.extractTransaction().toHex();
}

/** A raw signed-looking payment with chosen outputs (the server parses, it does not verify signatures). */
export function rawPayment(outputs: Array<{ address?: string; opReturn?: string; value: bigint }>): string {
  const transaction = new bitcoin.Transaction();
  transaction.version = 2;
  transaction.addInput(createHash('sha256').update('prevout').digest(), 0);
  transaction.setWitness(0, [new Uint8Array(71).fill(1), senderKey.publicKey]);
  for (const output of outputs) {
    const script =
      output.opReturn !== undefined
        ? bitcoin.payments.embed({ data: [Buffer.from(output.opReturn, 'hex')] }).output!
        : bitcoin.address.toOutputScript(output.address!);
    transaction.addOutput(script, output.value);
  }
  return transaction.toHex();
}

/** A throwaway PostgreSQL cluster, started from a copy of the run's one initdb (global-setup.ts). */
export function startTestPostgres(binaries: PostgresBinaries | { missing: string }) {
  if ('missing' in binaries) throw new Error(binaries.missing);
  return startPostgres(binaries, inject('postgresData'));
}
