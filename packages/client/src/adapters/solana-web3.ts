/**
 * `@swap-gateway/client/solana-web3`: a `SolanaSigner` over @solana/web3.js (an optional peer
 * dependency, v1), signing with a `Keypair` or with a wallet's `signTransaction` (wallet adapters),
 * and broadcasting through a `Connection`.
 *
 * ```ts
 * import { solanaSigner } from '@swap-gateway/client/solana-web3';
 * const solana = solanaSigner({ connection, keypair }); // or { connection, signTransaction: wallet.signTransaction }
 * await executeQuote(gateway, quote, { signer: { solana } });
 * ```
 *
 * It deserializes the decoded bytes of the order's unsigned versioned transaction, signs that, and
 * sends the signed serialization.
 */
import { VersionedTransaction, type Connection, type Signer } from '@solana/web3.js';
import type { SolanaSigner } from '../signers.js';

export type SolanaSignerOptions = {
  /** Where the signed transaction is sent (`sendRawTransaction`). */
  connection: Pick<Connection, 'sendRawTransaction'>;
} & (
  | { /** A `Keypair` (or any `{ publicKey, secretKey }`) that is the transaction's fee payer. */ keypair: Signer }
  | {
      /** A wallet's `signTransaction`, resolving to the signed transaction. */ signTransaction: (
        transaction: VersionedTransaction,
      ) => Promise<VersionedTransaction>;
    }
);

export function solanaSigner(options: SolanaSignerOptions): SolanaSigner {
  return {
    async signAndSendTransaction(bytes) {
      let transaction = VersionedTransaction.deserialize(bytes);
      if ('keypair' in options) transaction.sign([options.keypair]);
      else transaction = await options.signTransaction(transaction);
      return options.connection.sendRawTransaction(transaction.serialize());
    },
  };
}
