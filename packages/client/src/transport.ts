/**
 * One request, sent with a timeout per attempt and retried by the retry policy. An attempt is the
 * request and its whole answer: a 2xx answer comes back with its body read, anything else becomes
 * one of the client's errors, so every call either has its answer or throws.
 */
import { GatewayApiError, GatewayNetworkError, GatewayTimeoutError, type GatewayRequestInfo } from './errors.js';
import { type RetryPolicy, backoffDelay, isRetryable, parseRetryAfter, sleep } from './retry.js';

/**
 * What the client calls for each attempt: `globalThis.fetch`, or a hook of the app's. `init.headers`
 * is a `Headers` of its own for each attempt, so a hook may change it without touching other calls.
 */
export type FetchFunction = (input: string, init: RequestInit & { method: string; headers: Headers }) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchFunction;
  /** Per attempt, until the whole body is read; 0 or Infinity waits for ever. */
  timeoutMs: number;
  retry: RetryPolicy;
}

/** Sends `init` (with its `method`) to `url`; resolves to the 2xx answer and its body as text. */
export type Send = (url: string, init: RequestInit & { method: string }) => Promise<[response: Response, body: string]>;

export function createTransport({ fetch, timeoutMs, retry }: TransportOptions): Send {
  return async function send(url, init) {
    const info: GatewayRequestInfo = { method: init.method, url };
    for (let attempt = 0; ; attempt++) {
      try {
        return await sendOnce(fetch, url, init, timeoutMs, info);
      } catch (error) {
        if (attempt >= retry.retries || !isRetryable(info.method, error)) throw error;
        const retryAfterMs = error.kind === 'http' ? error.retryAfterMs : undefined;
        if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) throw error;
        await sleep(Math.max(retryAfterMs ?? 0, backoffDelay(retry, attempt)), init.signal);
      }
    }
  };
}

/** One attempt: the answer read whole, a 2xx returned and anything else thrown as one of the client's errors. */
async function sendOnce(
  fetch: FetchFunction,
  url: string,
  init: RequestInit & { method: string },
  timeoutMs: number,
  info: GatewayRequestInfo,
): Promise<[Response, string]> {
  const caller = init.signal;
  caller?.throwIfAborted();
  // With a timeout, one controller per attempt, aborted by the timer or by the caller's signal
  // (AbortSignal.timeout and AbortSignal.any do the same at several times the cost per call).
  // Without one, fetch gets the caller's signal or none at all, which costs it less.
  const attempt = timeoutMs > 0 && timeoutMs < Infinity ? new AbortController() : undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const forwardAbort = () => attempt?.abort(caller?.reason);
  // A fetch that throws instead of rejecting is a hook's bug, not an outage: it propagates as it is,
  // never retried (fetch itself always rejects).
  const answer = fetch(url, { ...init, headers: new Headers(init.headers), signal: attempt ? attempt.signal : (caller ?? null) });
  if (attempt) {
    timer = setTimeout(() => attempt.abort(timedOut), timeoutMs);
    caller?.addEventListener('abort', forwardAbort, { once: true });
  }
  let response: Response;
  let body: string;
  try {
    response = await answer;
    body = await response.text();
  } catch (cause) {
    if (caller?.aborted) throw caller.reason;
    if (attempt?.signal.reason === timedOut) {
      throw new GatewayTimeoutError(`${info.method} ${info.url} had no complete answer within ${timeoutMs} ms`, info, timeoutMs);
    }
    // fetch and body readers reject with a TypeError when the connection fails.
    throw cause instanceof TypeError ? new GatewayNetworkError(info, cause) : cause;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', forwardAbort);
  }
  if (response.ok) return [response, body];
  throw new GatewayApiError(info, response.status, body, parseRetryAfter(response.headers.get('Retry-After')));
}

/** The abort reason of a timed-out attempt, told apart from the caller's own abort. */
const timedOut = new Error('timeout');
