import type { ChainKind } from '../config/config.js';

/**
 * The most of a token one transfer can move on each kind of chain, in its smallest unit: EVM and
 * Tron token amounts are uint256, Solana's SPL amounts u64, and no Bitcoin payment exceeds the money
 * supply (Bitcoin Core's MAX_MONEY, in sats). A quote beyond them could never be executed, and its
 * source transaction could not be written.
 */
export const largestAmount: Record<ChainKind, bigint> = {
  evm: 2n ** 256n - 1n,
  tron: 2n ** 256n - 1n,
  solana: 2n ** 64n - 1n,
  bitcoin: 2_100_000_000_000_000n,
};
