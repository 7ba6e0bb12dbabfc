/**
 * What the tests send to the sandbox gateway server (packages/server, started with
 * `sandboxServerOptions('drivenByTest')` of @swap-gateway/test-support): the test wallets and tokens.
 */
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { BIP32Factory } from 'bip32';
import { ECPairFactory } from 'ecpair';
import * as ecc from 'tiny-secp256k1';
import { privateKeyToAccount } from 'viem/accounts';

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
/** An onramp the sandbox serves: 0.01 BTC to WBTC on BOB for the EVM test account, refunded to `refundAddress`. */
export const onrampQuoteParams = (refundAddress: string) => ({
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: tokens.btc,
  dstToken: tokens.wbtcBob,
  amount: '1000000',
  recipient: evmAccount.address,
  refundAddress,
});

/** A Tron account (the app's Tron wallet is not a library adapter here). */
export const tronAccount = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const btcRecipient = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
