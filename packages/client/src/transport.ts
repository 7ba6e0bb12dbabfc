/**
 * The `fetch` that openapi-fetch calls: one request, sent with a timeout per attempt and retried by
 * the retry policy. A 2xx answer is handed back to openapi-fetch; anything else becomes one of the
 * client's errors, so every operation either returns its success body or throws.
 */
import { GatewayApiError, GatewayNetworkError, GatewayTimeoutError, type GatewayRequestInfo } from './errors.js';
import { type RetryPolicy, backoffDelay, isRetryable, parseRetryAfter, sleep } from './retry.js';

/** The signature of `globalThis.fetch`. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchFunction;
  /** Per attempt, until the whole body is read; 0 or Infinity waits for ever. */
  timeoutMs: number;
  retry: RetryPolicy;
}

/**
 * What openapi-fetch builds for each call (given to it as its `Request` class, so it is also what
 * an `api.use()` middleware receives): the URL and the init, kept as they are so that `fetch`
 * constructs the one Request of each attempt itself, and so that a JSON body, a string, can be sent
 * again without cloning. A middleware may change `headers` in place or return a new PreparedRequest.
 */
export class PreparedRequest {
  declare readonly url: string;
  declare readonly init: RequestInit & { headers: Headers };

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.init = { ...init, headers: init.headers instanceof Headers ? init.headers : new Headers(init.headers) };
  }

  get method(): string {
    return this.init.method ?? 'GET';
  }

  get headers(): Headers {
    return this.init.headers;
  }

  get signal(): AbortSignal | null {
    return this.init.signal ?? null;
  }
}

export function createTransport({ fetch, timeoutMs, retry }: TransportOptions): (request: PreparedRequest) => Promise<Response> {
  return async function send(request) {
    const info: GatewayRequestInfo = { method: request.method, url: request.url };
    for (let attempt = 0; ; attempt++) {
      try {
        return await sendOnce(fetch, request, timeoutMs, info);
      } catch (error) {
        if (attempt >= retry.retries || !isRetryable(request.method, error)) throw error;
        const retryAfterMs = error.kind === 'http' ? error.retryAfterMs : undefined;
        if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) throw error;
        await sleep(Math.max(retryAfterMs ?? 0, backoffDelay(retry, attempt)), request.signal);
      }
    }
  };
}

/**
 * One attempt: a 2xx answer, handed back with its body unread (openapi-fetch reads it under the same
 * timeout), or one of the client's errors, with the body of an error answer read here.
 */
async function sendOnce(fetch: FetchFunction, request: PreparedRequest, timeoutMs: number, info: GatewayRequestInfo): Promise<Response> {
  const caller = request.signal;
  caller?.throwIfAborted();
  const timed = timeoutMs > 0 && timeoutMs < Infinity;
  // One controller per attempt, aborted by the timer or by the caller's signal (AbortSignal.timeout
  // and AbortSignal.any do the same at several times the cost per call). With neither, fetch gets
  // no signal at all, which costs it less.
  const attempt = timed || caller ? new AbortController() : undefined;
  const signal = attempt?.signal;
  const timer = timed ? setTimeout(() => attempt?.abort(timedOut), timeoutMs) : undefined;
  const forwardAbort = () => attempt?.abort(caller?.reason);
  caller?.addEventListener('abort', forwardAbort, { once: true });
  const release = () => {
    clearTimeout(timer);
    caller?.removeEventListener('abort', forwardAbort);
  };
  const failure = (cause: unknown): unknown => {
    if (caller?.aborted) return caller.reason;
    if (signal?.reason === timedOut) {
      return new GatewayTimeoutError(`${info.method} ${info.url} had no complete answer within ${timeoutMs} ms`, info, timeoutMs);
    }
    // fetch and body readers reject with a TypeError when the connection fails; anything else
    // (a SyntaxError of a 2xx body that is not JSON) is not a network failure.
    return cause instanceof TypeError ? new GatewayNetworkError(info, cause) : cause;
  };
  let response: Response;
  let rawBody: string;
  try {
    response = await fetch(request.url, signal ? { ...request.init, signal } : request.init);
    if (response.ok) return releasedAfterBody(response, release, failure);
    rawBody = await response.text();
  } catch (cause) {
    release();
    throw failure(cause);
  }
  // (A 2xx answer releases the attempt once its body is read.)
  release();
  throw new GatewayApiError(info, response.status, rawBody, parseRetryAfter(response.headers.get('Retry-After')));
}

/** The abort reason of a timed-out attempt, told apart from the caller's own abort. */
const timedOut = new Error('timeout');

/**
 * Keeps the attempt's timer running until openapi-fetch has read the body of a 2xx answer (with
 * `json()`, or `text()` when there is no Content-Length; the API answers JSON only), and gives a
 * failure while reading the same error kinds as a failure before the answer.
 */
function releasedAfterBody(response: Response, release: () => void, failure: (cause: unknown) => unknown): Response {
  if (response.body === null || response.headers.get('Content-Length') === '0') {
    release();
    return response;
  }
  const onRead = <T>(value: T) => {
    release();
    return value;
  };
  const onFailure = (cause: unknown): never => {
    release();
    throw failure(cause);
  };
  const { json, text } = response;
  response.json = () => json.call(response).then(onRead, onFailure);
  response.text = () => text.call(response).then(onRead, onFailure);
  return response;
}
