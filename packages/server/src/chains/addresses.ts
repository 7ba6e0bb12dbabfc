/**
 * Is this an address on that chain? Each chain's own encoding, checked with the library made for it:
 * bitcoinjs-lib for Bitcoin (any standard output type of the configured network), viem for EVM
 * (0x + 20 bytes, EIP-55 checksum when mixed-case), Base58Check with the 0x41 prefix for Tron, and a
 * 32-byte Base58 public key for Solana.
 */
import { PublicKey } from '@solana/web3.js';
import bs58check from 'bs58check';
import { isAddress } from 'viem';
import { LRUCache } from 'lru-cache';
import type { ChainKind } from '../config/config.js';
import { bitcoinLib, type BitcoinNetwork } from './bitcoin-lib.js';

/**
 * Whether bitcoinjs-lib's `toOutputScript` takes the address, decided from the decoders alone for the
 * common outputs (P2PKH, P2SH, P2WPKH, P2WSH) and by `toOutputScript` itself for the rest. An
 * address under the network's bech32 prefix and separator goes to bech32 at once: no Base58Check
 * address of the network starts so (its versions give 1, 3, m, n or 2), and the Base58 decode of a
 * bech32 string runs to its first 0 or l, to its end in about one address of twelve. Any other is
 * tried as Base58Check first: a 21-byte payload is a P2PKH or P2SH output when its version is the
 * network's, and none otherwise; anything else goes on to bech32, where a v0 program of 20 or 32
 * bytes under the network's prefix is a P2WPKH or P2WSH output. `toOutputScript` builds a payment
 * and, on a bech32 string, throws from its Base58 decode first; `decodeUnsafe` answers undefined.
 * Measured (bench/README.md): a new address 16-27 → 4.7-6.4 µs; a bech32 one without 0 or l 9.8-19.6 → 1.6-2.2 µs.
 */
export function hasOutputScript(address: string, network: BitcoinNetwork): boolean {
  const underBech32Prefix = address.startsWith(network.bech32) && address[network.bech32.length] === '1';
  const payload = underBech32Prefix ? undefined : bs58check.decodeUnsafe(address);
  if (payload?.length === 21) return payload[0] === network.pubKeyHash || payload[0] === network.scriptHash;
  let decoded: ReturnType<typeof bitcoinLib.address.fromBech32>;
  try {
    decoded = bitcoinLib.address.fromBech32(address);
  } catch {
    return false;
  }
  if (decoded.prefix !== network.bech32) return false;
  if (decoded.version === 0 && (decoded.data.length === 20 || decoded.data.length === 32)) return true;
  try {
    bitcoinLib.address.toOutputScript(address, network);
    return true;
  } catch {
    return false;
  }
}

/**
 * A quote's addresses recur (a user's refund address, the same recipient, an integrator's affiliate):
 * answers are remembered, per chain kind and Bitcoin network, for the most recent addresses. In front
 * of viem too, whose own caches delete and re-add an entry of a Map on every hit, garbage that
 * outlived the young generation.
 * Measured (bench/README.md): a known P2PKH address 11.1-13.2 → 0.03-0.4 µs, a bech32 one 2.0-3.5 → 0.03-0.06 µs;
 * a new amount every get-quote, 289-292 → 37-45 bytes a request promoted, no mark-compact left.
 */
const addressChecks = new LRUCache<string, boolean>({ max: 10_000 });

export function isValidAddress(kind: ChainKind, address: string, network: BitcoinNetwork): boolean {
  // Longer than any chain's addresses (bech32 strings end at 90 characters): refused, not remembered.
  if (address.length > 90) return false;
  // viem checks an EVM address without a checksum (all lowercase) by its pattern alone, cheaper than
  // a lookup here: a new recipient every get-quote, 7% less CPU not remembered (bench/README.md).
  if (kind === 'evm' && address === address.toLowerCase()) return isAddress(address, { strict: true });
  const key = `${kind === 'bitcoin' ? network.bech32 : kind}:${address}`;
  const known = addressChecks.get(key);
  if (known !== undefined) return known;
  const valid = isAddressOnChain(kind, address, network);
  addressChecks.set(key, valid);
  return valid;
}

function isAddressOnChain(kind: ChainKind, address: string, network: BitcoinNetwork): boolean {
  switch (kind) {
    case 'bitcoin':
      return hasOutputScript(address, network);
    case 'evm':
      return isAddress(address, { strict: true });
    case 'tron':
      return tronAddressBytes(address) !== undefined;
    case 'solana':
      try {
        return new PublicKey(address).toBase58() === address;
      } catch {
        return false;
      }
  }
}

/** What each chain's addresses look like, for error messages. */
export const addressFormat: Record<ChainKind, string> = {
  bitcoin: 'a Bitcoin address of the configured network (bech32, P2PKH or P2SH)',
  evm: 'a 0x-prefixed 20-byte hex address (EIP-55 checksum when mixed-case)',
  tron: 'a Base58Check Tron address starting with T',
  solana: 'a Base58 32-byte Solana public key',
};

/** The 20-byte account of a Tron address (Base58Check of 0x41 + 20 bytes), or undefined. */
export function tronAddressBytes(address: string): Uint8Array | undefined {
  try {
    const bytes = bs58check.decode(address);
    return bytes.length === 21 && bytes[0] === 0x41 ? bytes.subarray(1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The form addresses are stored and compared in: lower case for EVM hex, which is case-insensitive,
 * and for bech32, which is written in lower or in upper case (as QR codes write it) but never mixed
 * (BIP 173); Base58 as given, since its case is its value. `kind` undefined: the address's own
 * shape decides (an upper-case bech32 address has no Base58 reading of any chain in practice).
 */
export function normalizeAddress(kind: ChainKind | undefined, address: string): string {
  if (kind === 'evm' || /^0x[0-9a-fA-F]+$/.test(address)) return address.toLowerCase();
  return (kind === 'bitcoin' || kind === undefined) && upperCaseBech32.test(address) ? address.toLowerCase() : address;
}

/**
 * The forms an address in its normal form may be stored under: that one, and for bech32 also upper
 * case, which orders written before normalizeAddress lower-cased it keep (a settled order does not
 * change, so they were not rewritten).
 */
export function storedForms(address: string): string[] {
  return lowerCaseBech32.test(address) ? [address, address.toUpperCase()] : [address];
}

/** A Bitcoin bech32 address of any network: its prefix, the separator 1, then bech32's alphabet, in one case. */
const bech32Alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const lowerCaseBech32 = new RegExp(`^(bc|tb|bcrt)1[${bech32Alphabet}]+$`);
const upperCaseBech32 = new RegExp(`^(BC|TB|BCRT)1[${bech32Alphabet.toUpperCase()}]+$`);
