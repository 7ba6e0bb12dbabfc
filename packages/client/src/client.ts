/**
 * createGatewayClient: openapi-fetch over the generated `paths`, with the key, the transport
 * (timeouts, retries, errors) and a thin named layer for the flow of the API.
 */
import createClient, { createQuerySerializer } from 'openapi-fetch';
import type {
  GatewayCreateOrderV3,
  GatewayMaxSpendableV4,
  GatewayOrderInfoV3,
  GatewayOrdersPageV3,
  GatewayOrdersQueryV4,
  GatewayQuoteParamsV4,
  GatewayQuoteV3,
  GatewayQuoteV4,
  GatewayRegisterTxResultV4,
  GatewayRegisterTxV4,
  GatewayRoutesV4,
  paths,
} from '@swap-gateway/types';
import type { GatewayApi } from './api.js';
import { GatewayTimeoutError } from './errors.js';
import { type RetryOptions, isRetryable, resolveRetryPolicy, sleep } from './retry.js';
import { type FetchFunction, PreparedRequest, createTransport } from './transport.js';
import { isSettled } from './unions.js';

export type GatewayEnvironment = 'production' | 'staging';

/**
 * The deployments' addresses. The description does not publish them; these are the defaults of the
 * document's `servers` (a test keeps them equal). Pass `environments` to point at the real hosts.
 */
export const defaultEnvironments: Readonly<Record<GatewayEnvironment, string>> = {
  production: 'https://api.swap-gateway.example',
  staging: 'https://staging.swap-gateway.example',
};

export interface GatewayClientOptions {
  /** Base address of the API, without the version prefix. Wins over `environment`. */
  baseUrl?: string;
  /** A deployment, resolved through `environments`. Default `production` when there is no `baseUrl`. */
  environment?: GatewayEnvironment;
  /** Addresses of the deployments, over `defaultEnvironments`. */
  environments?: Partial<Record<GatewayEnvironment, string>>;
  /** Optional API key, exactly 32 characters, sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: FetchFunction;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retry policy, or `false` for none. See `RetryOptions`. */
  retry?: RetryOptions | false;
  /**
   * Per attempt, until the whole answer is read. Default 0: no timeout of the client's own, as with
   * `fetch` (Node's fetch still gives up after 300 s without headers or body data). An abort signal
   * costs Node's fetch about 4% per call, so the client only pays it when asked to time out.
   */
  timeoutMs?: number;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface IterateOrdersOptions extends CallOptions {
  /** Orders per page (`limit`, >= 1). Default: the server's. */
  limit?: number;
}

export interface WaitForOrderOptions extends CallOptions {
  /** Delay between reads. Default 5000 ms. */
  intervalMs?: number;
  /** Ceiling of the delay after failed reads, which doubles it each time. Default 60000 ms. */
  maxIntervalMs?: number;
  /** Give up with a `GatewayTimeoutError` after this long. Default: never. */
  timeoutMs?: number;
  /** Called with the first order read, then each time it differs from the one read before (settled or not). */
  onUpdate?: (order: GatewayOrderInfoV3) => void;
}

export interface GatewayClient {
  /**
   * Every V4 and V3 operation, typed from the document: `api.GET('/v4/get-order/{id}', ...)` resolves
   * to `{ data, response }` with the success body; non-2xx answers throw.
   */
  readonly api: GatewayApi;
  readonly baseUrl: string;
  /** GET /v4/get-routes */
  getRoutes(options?: CallOptions): Promise<GatewayRoutesV4>;
  /** GET /v4/get-quote */
  getQuote(params: GatewayQuoteParamsV4, options?: CallOptions): Promise<GatewayQuoteV4>;
  /** POST /v4/create-order with the quote, unchanged. Retried only on 429. */
  createOrder(quote: GatewayQuoteV4, options?: CallOptions): Promise<GatewayCreateOrderV3>;
  /** PATCH /v4/register-tx (onramp only). Retried only on 429. */
  registerTx(body: GatewayRegisterTxV4, options?: CallOptions): Promise<GatewayRegisterTxResultV4>;
  /** GET /v4/get-order/{id}: by order id, source Bitcoin txid or source EVM transaction hash. */
  getOrder(id: string, options?: CallOptions): Promise<GatewayOrderInfoV3>;
  /** GET /v4/get-orders/{user_address}: one page. */
  getOrders(userAddress: string, query?: GatewayOrdersQueryV4, options?: CallOptions): Promise<GatewayOrdersPageV3>;
  /** GET /v4/get-max-spendable/{address}: `{ userAddress, amount }`, the public gateway's shape (inferred by the document). */
  getMaxSpendable(address: string, options?: CallOptions): Promise<GatewayMaxSpendableV4>;
  /** POST /v3/create-order with a V3 quote. Retried only on 429. */
  createOrderV3(quote: GatewayQuoteV3, options?: CallOptions): Promise<GatewayCreateOrderV3>;
  /** GET /v3/get-order/{id} */
  getOrderV3(id: string, options?: CallOptions): Promise<GatewayOrderInfoV3>;
  /** GET /v3/get-orders/{user_address}: one page. */
  getOrdersV3(userAddress: string, query?: GatewayOrdersQueryV4, options?: CallOptions): Promise<GatewayOrdersPageV3>;
  /** Every order of an address, page after page, until `nextCursor` is null or absent. */
  iterateOrders(userAddress: string, options?: IterateOrdersOptions): AsyncGenerator<GatewayOrderInfoV3, void, undefined>;
  /** Polls get-order until the order is `success`, `failed` or `refunded` (final by this client's choice: see `isSettled`), and returns it. */
  waitForOrder(id: string, options?: WaitForOrderOptions): Promise<GatewayOrderInfoV3>;
}

const apiKeyLength = 32;

export function createGatewayClient(options: GatewayClientOptions = {}): GatewayClient {
  const { apiKey } = options;
  if (apiKey !== undefined && apiKey.length !== apiKeyLength) {
    throw new RangeError(
      `apiKey must be exactly ${apiKeyLength} characters, got ${apiKey.length}; omit it to call the API without a key`,
    );
  }
  const baseUrl = resolveBaseUrl(options);
  // The transport throws on every non-2xx answer, so openapi-fetch's `{ error }` branch never happens.
  const api = createClient<paths>({
    baseUrl,
    headers: apiKey === undefined ? options.headers : { ...options.headers, Authorization: `Bearer ${apiKey}` },
    // openapi-fetch builds a PreparedRequest where it would build a Request, and hands it to the
    // transport (see PreparedRequest); its types only know of Request.
    Request: PreparedRequest as unknown as typeof Request,
    fetch: createTransport({
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      timeoutMs: options.timeoutMs ?? 0,
      retry: resolveRetryPolicy(options.retry),
    }) as unknown as (request: Request) => Promise<Response>,
    // Built once: openapi-fetch would otherwise build the default serializer on every call.
    querySerializer: createQuerySerializer(),
  }) as GatewayApi;

  const getOrder = (id: string, { signal }: CallOptions = {}) =>
    dataOf(api.GET('/v4/get-order/{id}', { params: { path: { id } }, signal }));
  const getOrders = (userAddress: string, query?: GatewayOrdersQueryV4, { signal }: CallOptions = {}) =>
    dataOf(api.GET('/v4/get-orders/{user_address}', { params: { path: { user_address: userAddress }, query }, signal }));

  return {
    api,
    baseUrl,
    getRoutes: ({ signal } = {}) => dataOf(api.GET('/v4/get-routes', { signal })),
    getQuote: (query, { signal } = {}) => dataOf(api.GET('/v4/get-quote', { params: { query }, signal })),
    createOrder: (quote, { signal } = {}) => dataOf(api.POST('/v4/create-order', { body: quote, signal })),
    registerTx: (body, { signal } = {}) => dataOf(api.PATCH('/v4/register-tx', { body, signal })),
    getOrder,
    getOrders,
    getMaxSpendable: (address, { signal } = {}) =>
      dataOf(api.GET('/v4/get-max-spendable/{address}', { params: { path: { address } }, signal })),
    createOrderV3: (quote, { signal } = {}) => dataOf(api.POST('/v3/create-order', { body: quote, signal })),
    getOrderV3: (id, { signal } = {}) => dataOf(api.GET('/v3/get-order/{id}', { params: { path: { id } }, signal })),
    getOrdersV3: (userAddress, query, { signal } = {}) =>
      dataOf(api.GET('/v3/get-orders/{user_address}', { params: { path: { user_address: userAddress }, query }, signal })),

    async *iterateOrders(userAddress, { limit, signal } = {}) {
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await getOrders(userAddress, { cursor, limit }, { signal });
        yield* page.orders;
        cursor = page.nextCursor ?? undefined;
        // A server that hands back a cursor it already gave would otherwise be paged for ever.
        if (cursor !== undefined && seen.has(cursor)) throw new Error(`get-orders repeated the cursor ${cursor}`);
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
    },

    async waitForOrder(id, { signal, intervalMs = 5000, maxIntervalMs = 60_000, timeoutMs, onUpdate } = {}) {
      const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
      let failedReads = 0;
      let lastOrder: GatewayOrderInfoV3 | undefined;
      let lastSeen: string | undefined;
      for (;;) {
        try {
          lastOrder = await getOrder(id, { signal });
          failedReads = 0;
          // An answer is a fresh JSON document, so comparing its text tells a change.
          const seen = JSON.stringify(lastOrder);
          if (seen !== lastSeen) onUpdate?.(lastOrder);
          lastSeen = seen;
          if (isSettled(lastOrder)) return lastOrder;
        } catch (error) {
          // A read that failed says nothing about the order: wait longer and read again. Answers
          // such as 404 or 400 are not outages and end the wait.
          if (!isRetryable('GET', error)) throw error;
          failedReads++;
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          throw new GatewayTimeoutError(
            `order ${id} was not settled within ${timeoutMs} ms`,
            { method: 'GET', url: `${baseUrl}/v4/get-order/${encodeURIComponent(id)}` },
            timeoutMs ?? Infinity,
            lastOrder,
          );
        }
        const delay = Math.min(maxIntervalMs, intervalMs * 2 ** failedReads);
        // Jitter only the backoff after failures, so that many pollers do not come back together.
        await sleep(Math.min(remaining, failedReads ? delay / 2 + (Math.random() * delay) / 2 : delay), signal);
      }
    },
  };
}

function resolveBaseUrl({ baseUrl, environment = 'production', environments }: GatewayClientOptions): string {
  if (baseUrl !== undefined) return baseUrl;
  const address = environments?.[environment] ?? defaultEnvironments[environment];
  if (address === undefined) throw new RangeError(`unknown environment ${String(environment)}`);
  return address;
}

function dataOf<T>(call: Promise<{ data: T }>): Promise<T> {
  return call.then(({ data }) => data);
}
