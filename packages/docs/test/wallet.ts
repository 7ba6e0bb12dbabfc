/**
 * What the sample and console tests send to the sandbox: the parameters of an executable onramp
 * quote, and a Bitcoin wallet they hold the key of: the client's bitcoinjs signer
 * (`@swap-gateway/client/bitcoinjs`, P2WPKH; bitcoinjs-lib is its peer dependency) over an HD root from a seed. The sandbox's simulated
 * chain gives every address coins, so an order quoted with this wallet as `sender` carries a PSBT
 * that this key signs. (The onramp flow sample signs with the sandbox wallet command its page prints,
 * samples/guides/sandbox-wallet.ts.)
 */
import { createHash } from 'node:crypto';
import { bitcoinjsSigner } from '@swap-gateway/client/bitcoinjs';
import { BIP32Factory } from 'bip32';
import * as ecc from 'tiny-secp256k1';

export const testWallet = (seed: string) =>
  bitcoinjsSigner({ hdNode: BIP32Factory(ecc).fromSeed(createHash('sha256').update(`docs samples wallet ${seed}`).digest()) });

/** An onramp the sandbox serves (0.01 BTC to WBTC on BOB), executable: it names a refund address. */
export const onrampQuoteParameters = {
  srcChain: 'bitcoin',
  dstChain: 'bob',
  srcToken: '0x0000000000000000000000000000000000000000',
  dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  amount: '1000000',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  refundAddress: 'bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged',
};
