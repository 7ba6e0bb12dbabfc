/** bitcoinjsSigner reads one options object; what plain JavaScript passes beside it is refused, not ignored. */
import { networks } from 'bitcoinjs-lib';
import { expect, test } from 'vitest';
import { bitcoinjsSigner } from '../src/adapters/bitcoinjs.js';
import { bitcoinRoot } from './support/sandbox.js';

test('takes the network from its options, and refuses one passed as a second argument', () => {
  expect(bitcoinjsSigner({ hdNode: bitcoinRoot, network: networks.testnet }).address).toMatch(/^tb1q/);
  // The mistake of a caller without types: the key would silently get a mainnet address.
  const untyped = bitcoinjsSigner as (...args: unknown[]) => unknown;
  expect(() => untyped({ hdNode: bitcoinRoot }, networks.testnet)).toThrow(/one options object/);
});
