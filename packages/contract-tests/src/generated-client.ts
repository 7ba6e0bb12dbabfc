/**
 * How a client generated from the public gateway's V4 document by openapi-generator
 * (typescript-fetch) hands a quote back to create-order: it passes the quote through its models,
 * so an optional field that is null comes back absent, and a field its model does not have is
 * dropped. Its V4 offramp and token-swap models (GatewayOfframpQuoteV4, GatewayTokenSwapQuoteV4)
 * have `refundAddress` but neither `signedQuoteData` nor `ownerAddress`.
 */
import type { GatewayRoute } from '@swap-gateway/types';
import type { Quote } from './flows.js';

const notInPublicModels: Record<GatewayRoute, string[]> = {
  onramp: [],
  offramp: ['signedQuoteData', 'ownerAddress'],
  tokenSwap: ['signedQuoteData', 'ownerAddress'],
};

/** The quote as such a client sends it to create-order. */
export function throughPublicModels(quote: Quote): Quote {
  const [route] = Object.keys(quote) as [GatewayRoute];
  const fields = Object.entries(withoutNulls(quote[route]) as Record<string, unknown>).filter(
    ([field]) => !notInPublicModels[route].includes(field),
  );
  return { [route]: Object.fromEntries(fields) };
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== null)
        .map(([key, item]) => [key, withoutNulls(item)]),
    );
  return value;
}
