/**
 * The options of a client and what every request made with them shares: the address, the headers
 * with the API key, and the transport (timeouts, retries, errors).
 */
import { type RetryOptions, resolveRetryPolicy } from './retry.js';
import { type FetchFunction, type Send, createTransport } from './transport.js';

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
  /** Base address of the API (`https://...`, or in a browser a path on the page's origin), without the version prefix. Wins over `environment`. */
  baseUrl?: string | undefined;
  /** A deployment, resolved through `environments`. Default `production` when there is no `baseUrl`. */
  environment?: GatewayEnvironment | undefined;
  /** Addresses of the deployments, over `defaultEnvironments`. */
  environments?: Partial<Record<GatewayEnvironment, string>> | undefined;
  /** Optional API key, exactly 32 characters, sent as `Authorization: Bearer <key>`. */
  apiKey?: string | undefined;
  /** The fetch to use; default `globalThis.fetch`. It sees every attempt of every call. */
  fetch?: FetchFunction | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Retry policy, or `false` for none. See `RetryOptions`. */
  retry?: RetryOptions | false | undefined;
  /**
   * Per attempt, until the whole answer is read. Default 0: no timeout of the client's own, as with
   * `fetch` (Node's fetch still gives up after 300 s without headers or body data). An abort signal
   * costs Node's fetch about 5% per call, so the client only pays it when asked to time out.
   */
  timeoutMs?: number | undefined;
}

export interface Connection {
  baseUrl: string;
  /** `options.headers` with the key's `authorization`, names in lower case. */
  headers: Record<string, string>;
  send: Send;
}

/** The document states it in prose (@swap-gateway/openapi exports it; test/config.test.ts holds them equal). */
const apiKeyLength = 32;

export function connect(options: GatewayClientOptions): Connection {
  const { apiKey } = options;
  if (apiKey !== undefined && apiKey.length !== apiKeyLength) {
    throw new RangeError(`apiKey must be exactly ${apiKeyLength} characters, got ${apiKey.length}; omit it to call the API without a key`);
  }
  // Through Headers, so that the key replaces an `Authorization` of `headers` in any letter case.
  const headers = new Headers(options.headers);
  if (apiKey !== undefined) headers.set('authorization', `Bearer ${apiKey}`);
  return {
    baseUrl: resolveBaseUrl(options),
    headers: Object.fromEntries(headers),
    send: createTransport({
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      timeoutMs: options.timeoutMs ?? 0,
      retry: resolveRetryPolicy(options.retry),
    }),
  };
}

function resolveBaseUrl({ baseUrl, environment = 'production', environments }: GatewayClientOptions): string {
  if (baseUrl !== undefined) return checkedBaseUrl(baseUrl);
  const address = environments?.[environment] ?? defaultEnvironments[environment];
  if (address === undefined) throw new RangeError(`unknown environment ${String(environment)}`);
  return address;
}

/**
 * An http(s) address, or a path on the page's own origin (`/api`, or empty, in a browser). Anything
 * else (`localhost:8080`, `127.0.0.1:8080`, `ftp://...`) is a mistake that every request would
 * report as a network failure and retry, and `waitForOrder` would poll for ever: refused here.
 */
function checkedBaseUrl(baseUrl: string): string {
  if (baseUrl === '' || baseUrl.startsWith('/')) return baseUrl;
  let protocol: string | undefined;
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {}
  if (protocol === 'http:' || protocol === 'https:') return baseUrl;
  throw new RangeError(`baseUrl must be an http or https address, or a path on the page's origin, not ${JSON.stringify(baseUrl)}`);
}
