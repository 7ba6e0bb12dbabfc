/**
 * `@swap-gateway/client/viem`: an `EvmSender` over a viem `WalletClient` (viem is an optional peer
 * dependency, v2). The wallet client signs and broadcasts with its account, on its chain, which must
 * be the order's source chain: the sender refuses to send a transaction meant for another chain.
 *
 * ```ts
 * import { viemSender } from '@swap-gateway/client/viem';
 * await executeQuote(gateway, quote, { signer: { evm: viemSender(walletClient) } });
 * ```
 */
import type { Account, Chain, Transport, WalletClient } from 'viem';
import type { EvmSender } from '../signers.js';

/** EVM chain ids of the gateway's chain names (`tx.chain`); pass `chainIds` for others. */
export const defaultChainIds: Readonly<Record<string, number>> = { ethereum: 1, bob: 60808, base: 8453, arbitrum: 42161 };

export interface ViemSenderOptions {
  /** Chain id of each gateway chain name, over `defaultChainIds`. */
  chainIds?: Record<string, number>;
}

export function viemSender(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  { chainIds }: ViemSenderOptions = {},
): EvmSender {
  return {
    async sendTransaction({ to, data, value, chain }) {
      const expected = chainIds?.[chain] ?? defaultChainIds[chain];
      if (expected === undefined) throw new RangeError(`no EVM chain id is known for the chain ${chain}: pass it in chainIds`);
      const connected = walletClient.chain?.id ?? (await walletClient.getChainId());
      if (connected !== expected)
        throw new RangeError(
          `the transaction is for ${chain} (chain id ${expected}) and the wallet client is on chain ${connected}: switch it first`,
        );
      return walletClient.sendTransaction({ account: walletClient.account, chain: walletClient.chain, to, data, value });
    },
  };
}
