/**
 * The sandbox gateway server (packages/server) on 127.0.0.1 and a free port, with its lifecycle
 * driven by the test through the sandbox controls (no background loop), and the test wallets.
 */
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { startServer, type RunningServer } from '@swap-gateway/server';
import { BIP32Factory } from 'bip32';
import { ECPairFactory } from 'ecpair';
import * as ecc from 'tiny-secp256k1';
import { privateKeyToAccount } from 'viem/accounts';

export async function startSandbox(): Promise<RunningServer> {
  return startServer({ port: 0, dataDir: ':memory:', config: { lifecycle: { confirmationDelaySeconds: 30, payoutDelaySeconds: 30, tickMs: 0 } } });
}

/** A call to a sandbox control; throws unless it answers 200. */
export async function sandboxControl<T = unknown>(server: RunningServer, path: string, body?: object): Promise<T> {
  const response = await fetch(`${server.url}/sandbox/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`sandbox ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Moves the sandbox clock past the confirmation and payout delays, one lifecycle pass per step. */
export async function settleSandbox(server: RunningServer): Promise<void> {
  for (let step = 0; step < 3; step++) await sandboxControl(server, 'advance', { seconds: 31 });
}

const seed = (label: string) => createHash('sha256').update(`client tests ${label}`).digest();

/** The Bitcoin test wallet's HD root (BIP 32), from a fixed seed. */
export const bitcoinRoot = BIP32Factory(ecc).fromSeed(seed('bitcoin'));
/** A Bitcoin test key on its own (ECPair), for the signer built from a key. */
export const bitcoinKey = ECPairFactory(ecc).fromPrivateKey(seed('bitcoin key'));
/** The EVM test account. */
export const evmAccount = privateKeyToAccount(`0x${seed('evm').toString('hex')}`);
/** The Solana test keypair. */
export const solanaKeypair = Keypair.fromSeed(seed('solana'));

export const tokens = {
  btc: '0x0000000000000000000000000000000000000000',
  wbtcBob: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  wbtcEthereum: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
  usdcSolana: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  usdcBase: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  usdtTron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};
/** A Tron account (the app's Tron wallet is not a library adapter here). */
export const tronAccount = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const btcRecipient = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
