/** The V4 operations of the document, by operationId. */
import type {
  GatewayMaxSpendableV4,
  GatewayOrdersQueryV4,
  GatewayQuoteParamsV4,
  GatewayRegisterTxV4,
  GatewayRoutesV4,
} from '@swap-gateway/types';
import type { FastifyRequest } from 'fastify';
import { isValidAddress } from '../chains/addresses.js';
import { maxSpendable } from '../chains/bitcoin.js';
import { invalidRequest } from '../errors.js';
import { clientOf } from '../http/client.js';
import type { OperationHandlers } from '../http/register-operations.js';
import type { Services } from '../services.js';

type Params<T> = FastifyRequest<{ Params: T }>;

export function v4Operations(services: Services): OperationHandlers {
  const { catalogue, quotes, orders, bitcoin } = services;
  return {
    getRoutesV4: {
      handler: async (): Promise<GatewayRoutesV4> =>
        catalogue.enabledRoutes().map((route) => ({
          srcChain: route.srcChain,
          srcToken: route.src.address,
          dstChain: route.dstChain,
          dstToken: route.dst.address,
        })),
    },
    getQuoteV4: {
      handler: async (request) => quotes.issue(request.query as GatewayQuoteParamsV4),
    },
    createOrderV4: {
      handler: async (request) => orders.create(request.body as Record<string, unknown>, 'v4', clientOf(request)),
    },
    registerTxV4: {
      handler: async (request) => orders.registerTx(request.body as GatewayRegisterTxV4),
    },
    getOrderV4: {
      handler: async (request) => orders.get((request as Params<{ id: string }>).params.id),
    },
    getOrdersV4: {
      handler: async (request) => {
        const { cursor, limit } = request.query as GatewayOrdersQueryV4;
        return orders.list((request as Params<{ user_address: string }>).params.user_address, cursor, limit);
      },
    },
    getMaxSpendableV4: {
      // The public gateway's GatewayMaxSpendable (the document's x-inferred answer): the address
      // and the most it can pay after the network fee, as an amount of native BTC.
      handler: async (request): Promise<GatewayMaxSpendableV4> => {
        const { address } = (request as Params<{ address: string }>).params;
        if (!isValidAddress('bitcoin', address, bitcoin.network))
          throw invalidRequest('address is not a Bitcoin address', { message: 'expected a bech32, P2PKH or P2SH address' });
        const btc = catalogue.bitcoinToken();
        if (!btc) throw new Error('the configuration has no token on a Bitcoin chain');
        const amount = maxSpendable(await bitcoin.utxos(address), bitcoin.feeRate());
        return { userAddress: address, amount: { address: btc.address, amount: amount.toString(), chain: btc.chain } };
      },
    },
  };
}
