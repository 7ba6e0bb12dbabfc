/**
 * Bitcoin addresses: what bitcoinjs-lib's toOutputScript takes, decided without it for the common
 * outputs; deposit addresses written without payments.p2wpkh.
 */
import { createHash } from 'node:crypto';
import { BIP32Factory } from 'bip32';
import bs58check from 'bs58check';
import { describe, expect, it } from 'vitest';
import { hasOutputScript } from '../src/chains/addresses.js';
import { DepositAddresses } from '../src/chains/bitcoin.js';
import { bitcoinLib, bitcoinNetwork, ecc } from '../src/chains/bitcoin-lib.js';

const bytes = (seed: string, length: number) => createHash('sha256').update(seed).digest().subarray(0, length);

/** Addresses of every standard output on a network, a future segwit version, and each with one character changed or its case changed. */
function addressesOn(network: bitcoinLib.networks.Network, seed: string): string[] {
  const { payments } = bitcoinLib;
  const xOnly = Buffer.from(ecc.pointFromScalar(bytes(`${seed} key`, 32))!.subarray(1));
  const valid = [
    payments.p2pkh({ hash: bytes(`${seed} pkh`, 20), network }).address!,
    payments.p2sh({ hash: bytes(`${seed} sh`, 20), network }).address!,
    payments.p2wpkh({ hash: bytes(`${seed} wpkh`, 20), network }).address!,
    payments.p2wsh({ hash: bytes(`${seed} wsh`, 32), network }).address!,
    payments.p2tr({ pubkey: xOnly, network }).address!,
    // A v1 program that is no curve point, and a 16-byte v0 program: bech32 that toOutputScript refuses.
    bitcoinLib.address.toBech32(bytes(`${seed} not a point`, 32), 1, network.bech32),
    bitcoinLib.address.toBech32(bytes(`${seed} short`, 16), 0, network.bech32),
    // A v2 program: a future segwit version.
    bitcoinLib.address.toBech32(bytes(`${seed} v2`, 20), 2, network.bech32),
  ];
  const changed = valid.flatMap((address) => {
    const at = address.length - 3;
    const other = address[at] === 'q' ? 'p' : 'q';
    return [address.slice(0, at) + other + address.slice(at + 1), address.toUpperCase(), address.slice(0, -1)];
  });
  // Base58Check of payloads one byte short and one too long, under the network's P2PKH version.
  const otherLengths = [20, 22].map((length) =>
    bs58check.encode(Buffer.concat([Buffer.from([network.pubKeyHash]), bytes(seed, length - 1)])),
  );
  return [...valid, ...changed, ...otherLengths, '', 'bc1', '1', 'x'.repeat(40), `${valid[0]}0`];
}

const accepts = (address: string, network: bitcoinLib.networks.Network) => {
  try {
    bitcoinLib.address.toOutputScript(address, network);
    return true;
  } catch {
    return false;
  }
};

describe('hasOutputScript', () => {
  it("agrees with bitcoinjs-lib's toOutputScript on every kind of address, of every network, changed or not", () => {
    const networks = (['bitcoin', 'testnet', 'regtest'] as const).map(bitcoinNetwork);
    let valid = 0;
    // toOutputScript warns once about a future segwit version; that is its business, not the test's.
    const warn = console.warn;
    console.warn = () => {};
    try {
      for (let seed = 0; seed < 40; seed++) {
        for (const from of networks) {
          for (const address of addressesOn(from, String(seed))) {
            for (const network of networks) {
              const expected = accepts(address, network);
              expect(hasOutputScript(address, network), `${address} on ${network.bech32}`).toBe(expected);
              if (expected) valid++;
            }
          }
        }
      }
    } finally {
      console.warn = warn;
    }
    // Both answers occur: every valid address on its own network, some on the others (testnet and regtest share Base58 versions).
    expect(valid).toBeGreaterThan(40 * 3 * 5);
  });
});

describe('DepositAddresses', () => {
  it('are the P2WPKH addresses of m/0/<index> of the extended public key, on every network', () => {
    for (const name of ['bitcoin', 'testnet', 'regtest'] as const) {
      const network = bitcoinNetwork(name);
      const root = BIP32Factory(ecc)
        .fromSeed(bytes(`deposits on ${name}`, 32), network)
        .neutered();
      const addresses = new DepositAddresses(root.toBase58(), network);
      for (const index of [0, 1, 2, 77, 2 ** 31 - 1]) {
        const expected = bitcoinLib.payments.p2wpkh({ pubkey: root.derive(0).derive(index).publicKey, network }).address;
        expect(addresses.at(index), `${name} m/0/${index}`).toBe(expected);
      }
    }
  });
});
