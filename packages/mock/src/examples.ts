/**
 * Which named example answers a request that does not say (no `Prefer` header). Prism alone
 * answers the first example of an operation, so an offramp quote would be answered with an onramp
 * order. The quote and create-order examples are named by route (`onramp`, `offramp`,
 * `tokenSwap`) and, for a second chain of the same route, by route and chain (`offrampTron`,
 * `tokenSwapSolana`), so the request's route picks the example.
 */
import type { MockOperation } from './operations.js';

type Route = 'onramp' | 'offramp' | 'tokenSwap';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Example names that fit the request, best first. */
function candidates(operation: MockOperation, query: URLSearchParams, body: unknown): string[] {
  if (operation.operationId.startsWith('getQuote')) {
    const srcChain = query.get('srcChain') ?? '';
    const route: Route = srcChain === 'bitcoin' ? 'onramp' : query.get('dstChain') === 'bitcoin' ? 'offramp' : 'tokenSwap';
    return [
      ...(route === 'onramp' && !query.get('refundAddress') ? ['onrampWithoutRefundAddress'] : []),
      `${route}${capitalize(srcChain)}`,
      route,
    ];
  }
  if (operation.operationId.startsWith('createOrder') && body && typeof body === 'object') {
    const [route] = Object.keys(body) as Route[];
    if (!route) return [];
    const quote = (body as Record<string, Record<string, unknown> | undefined>)[route] ?? {};
    // An onramp quote that names its sender gets a PSBT to sign.
    if (route === 'onramp') return quote.sender ? ['onrampWithPsbt', 'onramp'] : ['onramp'];
    return [`${route}${capitalize(String(quote.srcChain ?? ''))}`, route];
  }
  return [];
}

export function exampleForRequest(operation: MockOperation, query: URLSearchParams, body: unknown): string | undefined {
  return candidates(operation, query, body).find((name) => operation.successExamples.has(name));
}
