/**
 * createGatewayClient: a named call per operation of the API, with the key, the transport (timeouts,
 * retries, errors), pagination and polling, over a small request layer typed from the generated
 * `paths`. The openapi-fetch client over the same transport is `@swap-gateway/client/api`.
 */
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
} from '@swap-gateway/types';
import { type GatewayClientOptions, connect } from './connection.js';
import { GatewayTimeoutError } from './errors.js';
import { createRequest } from './request.js';
import { isRetryable, sleep } from './retry.js';
import { isSettled } from './unions.js';

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface IterateOrdersOptions extends CallOptions {
  /** Orders per page (`limit`, >= 1). Default: the server's. */
  limit?: number | undefined;
}

export interface WaitForOrderOptions extends CallOptions {
  /** Delay between reads. Default 5000 ms. */
  intervalMs?: number | undefined;
  /** Ceiling of the delay after failed reads, which doubles it each time; a longer `Retry-After` is waited for. Default 60000 ms. */
  maxIntervalMs?: number | undefined;
  /** Give up with a `GatewayTimeoutError` after this long, a read still waiting for its answer included. Default: never. */
  timeoutMs?: number | undefined;
  /** Called with the first order read, then each time it differs from the one read before (settled or not). */
  onUpdate?: ((order: GatewayOrderInfoV3) => void) | undefined;
}

export interface GatewayClient {
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

export function createGatewayClient(options: GatewayClientOptions = {}): GatewayClient {
  const connection = connect(options);
  const { baseUrl } = connection;
  const request = createRequest(connection);

  const getOrder = (id: string, { signal }: CallOptions = {}) => request('GET', '/v4/get-order/{id}', { path: { id }, signal });
  const getOrders = (userAddress: string, query?: GatewayOrdersQueryV4, { signal }: CallOptions = {}) =>
    request('GET', '/v4/get-orders/{user_address}', { path: { user_address: userAddress }, query: query ?? {}, signal });

  return {
    baseUrl,
    getRoutes: ({ signal } = {}) => request('GET', '/v4/get-routes', { signal }),
    getQuote: (query, { signal } = {}) => request('GET', '/v4/get-quote', { query, signal }),
    createOrder: (quote, { signal } = {}) => request('POST', '/v4/create-order', { body: quote, signal }),
    registerTx: (body, { signal } = {}) => request('PATCH', '/v4/register-tx', { body, signal }),
    getOrder,
    getOrders,
    getMaxSpendable: (address, { signal } = {}) => request('GET', '/v4/get-max-spendable/{address}', { path: { address }, signal }),
    createOrderV3: (quote, { signal } = {}) => request('POST', '/v3/create-order', { body: quote, signal }),
    getOrderV3: (id, { signal } = {}) => request('GET', '/v3/get-order/{id}', { path: { id }, signal }),
    getOrdersV3: (userAddress, query, { signal } = {}) =>
      request('GET', '/v3/get-orders/{user_address}', { path: { user_address: userAddress }, query: query ?? {}, signal }),

    async *iterateOrders(userAddress, { limit, signal } = {}) {
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await getOrders(
          userAddress,
          { ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit }) },
          { signal },
        );
        yield* page.orders;
        cursor = page.nextCursor ?? undefined;
        // A server that hands back a cursor it already gave would otherwise be paged for ever.
        if (cursor !== undefined && seen.has(cursor)) throw new Error(`get-orders repeated the cursor ${cursor}`);
        if (cursor !== undefined) seen.add(cursor);
      } while (cursor !== undefined);
    },

    async waitForOrder(id, { signal, intervalMs = 5000, maxIntervalMs = 60_000, timeoutMs, onUpdate } = {}) {
      // The deadline stops a read still waiting for its answer (or between its retries) as well as
      // the wait between reads: one controller for the whole wait, aborted by it or by the caller.
      const wait = new AbortController();
      const forwardAbort = () => wait.abort(signal?.reason);
      signal?.addEventListener('abort', forwardAbort, { once: true });
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => wait.abort(deadlineReached), timeoutMs);
      let failedReads = 0;
      let lastOrder: GatewayOrderInfoV3 | undefined;
      let lastSeen: string | undefined;
      const ended = (error: unknown) =>
        wait.signal.reason === deadlineReached
          ? new GatewayTimeoutError(
              `order ${id} was not settled within ${timeoutMs} ms`,
              { method: 'GET', url: `${baseUrl}/v4/get-order/${encodeURIComponent(id)}` },
              timeoutMs ?? Infinity,
              lastOrder,
            )
          : error;
      try {
        signal?.throwIfAborted();
        for (;;) {
          let retryAfterMs: number | undefined;
          try {
            lastOrder = await getOrder(id, { signal: wait.signal });
            failedReads = 0;
            // An answer is a fresh JSON document, so comparing its text tells a change.
            const seen = JSON.stringify(lastOrder);
            if (seen !== lastSeen) onUpdate?.(lastOrder);
            lastSeen = seen;
            if (isSettled(lastOrder)) return lastOrder;
          } catch (error) {
            // A read that failed says nothing about the order: wait longer (at least what a 429 or
            // 503 asks for) and read again. Answers such as 404 or 400 are not outages and end the wait.
            if (wait.signal.aborted || !isRetryable('GET', error)) throw error;
            failedReads++;
            retryAfterMs = error.kind === 'http' ? error.retryAfterMs : undefined;
          }
          const delay = Math.min(maxIntervalMs, intervalMs * 2 ** failedReads);
          // Jitter only the backoff after failures, so that many pollers do not come back together.
          await sleep(Math.max(retryAfterMs ?? 0, failedReads ? delay / 2 + (Math.random() * delay) / 2 : delay), wait.signal);
        }
      } catch (error) {
        throw ended(error);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', forwardAbort);
      }
    },
  };
}

/** The abort reason of a wait that reached its `timeoutMs`, told apart from the caller's own abort. */
const deadlineReached = new Error('waitForOrder timeoutMs');
