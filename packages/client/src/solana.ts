import type { GatewaySolanaTxData } from '@swap-gateway/types';

/**
 * Decodes the `transaction` of a Solana create-order result (a `GatewaySolanaTxData`, or its base64
 * string) into the bytes of the unsigned versioned transaction, ready for the user's signer:
 *
 * ```ts
 * const tx = VersionedTransaction.deserialize(decodeSolanaTransaction(order.tokenSwap.tx));
 * tx.sign([keypair]); // or wallet.signTransaction(tx)
 * await connection.sendRawTransaction(tx.serialize());
 * ```
 *
 * The base64 string itself is never signed: sign the decoded transaction, re-serialize it and
 * broadcast that.
 */
export function decodeSolanaTransaction(tx: GatewaySolanaTxData | string): Uint8Array {
  const base64 = typeof tx === 'string' ? tx : tx.transaction;
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    throw new TypeError('the Solana transaction is not valid base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
