/** bitcoinjs-lib with its elliptic-curve library installed (needed for Taproot addresses). */
import * as bitcoinLib from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';

bitcoinLib.initEccLib(ecc);

export { bitcoinLib, ecc };
export type BitcoinNetwork = bitcoinLib.networks.Network;

export function bitcoinNetwork(name: 'bitcoin' | 'testnet' | 'regtest'): BitcoinNetwork {
  return bitcoinLib.networks[name];
}
