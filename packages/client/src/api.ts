/**
 * `@swap-gateway/client/api`: openapi-fetch's client over the document's `paths`, every operation
 * typed from the document, with the options, key and transport (timeouts, retries, errors) of
 * `createGatewayClient`. A subpath of its own, because openapi-fetch's `createClient` is one closure
 * of about 2.6 kB gzipped that a bundler cannot shake: the core import's named calls go through a
 * request layer of a few hundred bytes instead (see src/request.ts).
 *
 * openapi-fetch types every answer as `{ data } | { error }`; the transport throws on every non-2xx
 * answer, so the `error` branch never happens and a call resolves to `{ data, response }` with the
 * success body: `GatewayApi` is typed so.
 */
import createClient, { createQuerySerializer, type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { paths } from '@swap-gateway/types';
import { type GatewayClientOptions, connect } from './connection.js';

// biome-ignore lint/suspicious/noExplicitAny: openapi-fetch's own bound for an operation; an interface is not a Record of unknown.
type OperationBound = Record<string | number, any>;

/** The success branch of openapi-fetch's answer: the 2xx body as `data`, and the `Response`. */
export type GatewayApiResponse<Operation, Init> = Operation extends OperationBound
  ? Omit<Exclude<FetchResponse<Operation, Init, MediaType>, { error: unknown }>, 'error'>
  : never;

/** openapi-fetch's second argument: required when the operation has required parameters or a body. */
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** One method of the client (`GET`, `POST`, ...), typed from the paths that have it. */
export type GatewayApiMethod<Method extends HttpMethod> = <
  Path extends PathsWithMethod<paths, Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<GatewayApiResponse<paths[Path][Method], Init>>;

/** openapi-fetch's `Client<paths>`, whose calls resolve to the success body or throw the client's errors. */
export interface GatewayApi extends Pick<Client<paths>, 'use' | 'eject'> {
  request<Method extends HttpMethod, Path extends PathsWithMethod<paths, Method>, Init extends MaybeOptionalInit<paths[Path], Method>>(
    method: Method,
    url: Path,
    ...init: InitParam<Init>
  ): Promise<GatewayApiResponse<paths[Path][Method], Init>>;
  GET: GatewayApiMethod<'get'>;
  PUT: GatewayApiMethod<'put'>;
  POST: GatewayApiMethod<'post'>;
  DELETE: GatewayApiMethod<'delete'>;
  OPTIONS: GatewayApiMethod<'options'>;
  HEAD: GatewayApiMethod<'head'>;
  PATCH: GatewayApiMethod<'patch'>;
  TRACE: GatewayApiMethod<'trace'>;
}

/**
 * What openapi-fetch builds for each call (given to it as its `Request` class, so it is also what an
 * `api.use()` middleware receives): the URL and the init, kept as they are so that `fetch` constructs
 * the one Request of each attempt itself, and so that a JSON body, a string, can be sent again without
 * cloning. A middleware may change `headers` in place or return a new PreparedRequest.
 */
export class PreparedRequest {
  declare readonly url: string;
  declare readonly init: RequestInit & { method: string; headers: Headers };

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.init = {
      ...init,
      method: init.method ?? 'GET',
      headers: init.headers instanceof Headers ? init.headers : new Headers(init.headers),
    };
  }

  get method(): string {
    return this.init.method;
  }

  get headers(): Headers {
    return this.init.headers;
  }

  get signal(): AbortSignal | null {
    return this.init.signal ?? null;
  }
}

/**
 * openapi-fetch's client with the options of `createGatewayClient` (key, address, headers, fetch,
 * retries, timeout): `createGatewayApi(options).GET('/v4/get-order/{id}', { params: { path: { id } } })`.
 */
export function createGatewayApi(options: GatewayClientOptions = {}): GatewayApi {
  const { baseUrl, headers, send } = connect(options);
  return createClient<paths>({
    baseUrl,
    headers,
    // openapi-fetch builds a PreparedRequest where it would build a Request, and hands it to this
    // fetch; its types only know of Request.
    Request: PreparedRequest as unknown as typeof Request,
    fetch: (async ({ url, init }: PreparedRequest) => {
      const [response, body] = await send(url, init);
      return withBody(response, body);
    }) as unknown as (request: Request) => Promise<Response>,
    // Built once: openapi-fetch would otherwise build the default serializer on every call.
    querySerializer: createQuerySerializer(),
  }) as GatewayApi;
}

/**
 * The transport has read the body (under its timeout), so the answer's own stream is used up: every
 * reader of the Response (`text`, `json`, `arrayBuffer`, `blob`, `body`, and `clone` for a
 * middleware) gives that text again. Set on the Response itself, by assignment where the property is
 * a method (a copy of the Response would cost a fifth of the call). The API answers JSON, text, so
 * nothing is lost by reading it as text.
 */
function withBody(response: Response, body: string): Response {
  const blob = () => new Blob([body], { type: response.headers.get('content-type') ?? '' });
  response.text = async () => body;
  response.json = async () => JSON.parse(body);
  response.arrayBuffer = () => blob().arrayBuffer();
  response.blob = async () => blob();
  // A clone has a Response's fields and the same body; a Response built here has no url of its own.
  response.clone = () => Object.defineProperty(withBody(new Response(null, response), body), 'url', { value: response.url });
  // `body` is a getter of Response.prototype, which only a definition overrides.
  return Object.defineProperty(response, 'body', { get: () => blob().stream() });
}
