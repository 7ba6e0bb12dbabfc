/**
 * Which named example answers a request that does not say (no `Prefer` header). Prism alone
 * answers the first example of an operation, so an offramp quote would be answered with an onramp
 * order. The quote and create-order examples are named by route (`onramp`, `offramp`,
 * `tokenSwap`) and, for a second chain of the same route, by route and chain (`offrampTron`,
 * `tokenSwapSolana`), so the request's route picks the example.
 */
import { jsonContent, type Operation } from '@swap-gateway/openapi';
import type { GatewayRoute } from '@swap-gateway/types';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Example names that fit the request, best first. */
function candidates(operation: Operation, query: URLSearchParams, body: unknown): string[] {
  if (operation.operationId.startsWith('getQuote')) {
    const srcChain = query.get('srcChain') ?? '';
    const route: GatewayRoute = srcChain === 'bitcoin' ? 'onramp' : query.get('dstChain') === 'bitcoin' ? 'offramp' : 'tokenSwap';
    return [
      ...(route === 'onramp' && !query.get('refundAddress') ? ['onrampWithoutRefundAddress'] : []),
      `${route}${capitalize(srcChain)}`,
      route,
    ];
  }
  if (operation.operationId.startsWith('createOrder') && body && typeof body === 'object') {
    const [route] = Object.keys(body) as GatewayRoute[];
    if (!route) return [];
    const quote = (body as Record<string, Record<string, unknown> | undefined>)[route] ?? {};
    // An onramp quote that names its sender gets a PSBT to sign.
    if (route === 'onramp') return quote.sender ? ['onrampWithPsbt', 'onramp'] : ['onramp'];
    return [`${route}${capitalize(String(quote.srcChain ?? ''))}`, route];
  }
  return [];
}

/** Names of the examples of the operation's success (2xx) response, for `Prefer: example=<name>`. */
function successExamples(operation: Operation): Set<string> {
  const success = Object.values(operation.responses).find((response) => response.status.startsWith('2'));
  return new Set(Object.keys(jsonContent(success)?.examples ?? {}));
}

export function exampleForRequest(operation: Operation, query: URLSearchParams, body: unknown): string | undefined {
  const named = successExamples(operation);
  return candidates(operation, query, body).find((name) => named.has(name));
}
