/**
 * The `fetch` that openapi-fetch calls: one request, sent with a timeout per attempt and retried by
 * the retry policy. A 2xx answer is handed back to openapi-fetch; anything else becomes one of the
 * client's errors, so every operation either returns its success body or throws.
 */
import { GatewayApiError, GatewayNetworkError, GatewayTimeoutError, type GatewayRequestInfo } from './errors.js';
import {
  type AttemptFailure,
  type RetryPolicy,
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  sleep,
} from './retry.js';

export type FetchFunction = (input: Request, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchFunction;
  /** Per attempt, until the whole body is read; 0 or Infinity waits for ever. */
  timeoutMs: number;
  retry: RetryPolicy;
}

export function createTransport({ fetch, timeoutMs, retry }: TransportOptions): (request: Request) => Promise<Response> {
  return async function send(request) {
    const info: GatewayRequestInfo = { method: request.method, url: request.url };
    for (let attempt = 0; ; attempt++) {
      let failure: AttemptFailure;
      let error: GatewayApiError | GatewayNetworkError | GatewayTimeoutError;
      let retryAfterMs: number | undefined;
      try {
        const { response, body } = await sendOnce(fetch, request, timeoutMs, info);
        if (response.ok) return new Response(body, response);
        retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'));
        failure = response.status;
        error = new GatewayApiError(info, response.status, body, retryAfterMs);
      } catch (thrown) {
        if (!(thrown instanceof GatewayNetworkError || thrown instanceof GatewayTimeoutError)) throw thrown;
        failure = thrown.kind;
        error = thrown;
      }
      if (attempt >= retry.retries || !isRetryable(request.method, failure)) throw error;
      if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) throw error;
      await sleep(Math.max(retryAfterMs ?? 0, backoffDelay(retry, attempt)), request.signal);
    }
  };
}

/** One attempt, body included, so that a body that never ends is caught by the timeout too. */
async function sendOnce(
  fetch: FetchFunction,
  request: Request,
  timeoutMs: number,
  info: GatewayRequestInfo,
): Promise<{ response: Response; body: string }> {
  const caller = request.signal;
  caller.throwIfAborted();
  const attempt = new AbortController();
  const timedOut = new Error('timeout');
  const forwardAbort = () => attempt.abort(caller.reason);
  caller.addEventListener('abort', forwardAbort, { once: true });
  const timer = timeoutMs > 0 && timeoutMs < Infinity ? setTimeout(() => attempt.abort(timedOut), timeoutMs) : undefined;
  try {
    // A request with a body can be read once; each attempt sends its own copy.
    const response = await fetch(request.body ? request.clone() : request, { signal: attempt.signal });
    return { response, body: await response.text() };
  } catch (cause) {
    if (caller.aborted) throw caller.reason;
    if (attempt.signal.reason === timedOut) {
      throw new GatewayTimeoutError(`${info.method} ${info.url} had no answer within ${timeoutMs} ms`, info, timeoutMs);
    }
    throw new GatewayNetworkError(info, cause);
  } finally {
    clearTimeout(timer);
    caller.removeEventListener('abort', forwardAbort);
  }
}
