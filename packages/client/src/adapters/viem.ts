/**
 * `@swap-gateway/client/viem`: an `EvmSender` over a viem `WalletClient` (viem is an optional peer
 * dependency, v2). The wallet client signs and broadcasts with its account, on its chain: connect it
 * to the order's source chain (`tx.chain`, e.g. `ethereum` or `base`).
 *
 * ```ts
 * import { viemSender } from '@swap-gateway/client/viem';
 * await executeQuote(gateway, quote, { signer: { evm: viemSender(walletClient) } });
 * ```
 */
import type { Account, Chain, Transport, WalletClient } from 'viem';
import type { EvmSender } from '../signers.js';

export function viemSender(walletClient: WalletClient<Transport, Chain | undefined, Account>): EvmSender {
  return {
    sendTransaction: ({ to, data, value }) =>
      walletClient.sendTransaction({ account: walletClient.account, chain: walletClient.chain, to, data, value }),
  };
}
