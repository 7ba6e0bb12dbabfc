/**
 * When a failed attempt is sent again, and after how long. Reads (GET) are retried on network
 * failures, timeouts, 429 and 5xx. create-order and register-tx are retried only on 429, where the
 * server processed nothing: after a 5xx or a lost answer the order may exist or the payment may have
 * been broadcast, so sending it again is the caller's decision.
 */
import { type GatewayClientError, isGatewayError } from './errors.js';

export interface RetryOptions {
  /** Attempts after the first one. Default 2. */
  retries?: number | undefined;
  /** Ceiling of the first backoff; it doubles on every retry. Default 250 ms. */
  baseDelayMs?: number | undefined;
  /** Ceiling of any backoff. Default 5000 ms. */
  maxDelayMs?: number | undefined;
  /** A `Retry-After` longer than this is not waited for: the 429 or 503 is thrown. Default 60000 ms. */
  maxRetryAfterMs?: number | undefined;
}

export type RetryPolicy = { [Option in keyof RetryOptions]-?: NonNullable<RetryOptions[Option]> };

const defaults: RetryPolicy = { retries: 2, baseDelayMs: 250, maxDelayMs: 5000, maxRetryAfterMs: 60_000 };

/** `false` turns retries off; missing or undefined fields take the defaults. */
export function resolveRetryPolicy(option: RetryOptions | false | undefined): RetryPolicy {
  if (option === false) return { ...defaults, retries: 0 };
  return {
    retries: option?.retries ?? defaults.retries,
    baseDelayMs: option?.baseDelayMs ?? defaults.baseDelayMs,
    maxDelayMs: option?.maxDelayMs ?? defaults.maxDelayMs,
    maxRetryAfterMs: option?.maxRetryAfterMs ?? defaults.maxRetryAfterMs,
  };
}

/**
 * Whether a failed attempt of a `method` request may be sent again: one of the client's errors that
 * says the server processed nothing (429), or, for a read, an outage (no answer, timeout, 5xx).
 */
export function isRetryable(method: string, error: unknown): error is GatewayClientError {
  if (!isGatewayError(error)) return false;
  if (error.kind === 'http') return error.status === 429 || (method === 'GET' && error.status >= 500);
  // A 2xx answer that is not JSON is an answer, not an outage: reading again would get the same.
  return method === 'GET' && error.kind !== 'response';
}

/** "Full jitter" exponential backoff: a random delay up to base * 2^attempt, capped. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
