/**
 * The request layer under the named calls: an operation of the document (method and path), typed
 * from the generated `paths`, called with its path parameters, query and JSON body, resolving to its
 * 2xx JSON body. It does what the core needs of openapi-fetch in a few hundred bytes; the full
 * openapi-fetch client is `@swap-gateway/client/api`.
 */
import type { paths } from '@swap-gateway/types';
import type { ErrorResponseJSON, HttpMethod, PathsWithMethod, SuccessResponseJSON } from 'openapi-typescript-helpers';
import type { Connection } from './connection.js';
import { GatewayResponseError } from './errors.js';

/** The operation object of a path and method (lower case) of the document. */
export type Operation<Method extends HttpMethod, Path extends PathsWithMethod<paths, Method>> = paths[Path][Method];

type ParametersOf<Op> = Op extends { parameters: infer P } ? P : never;

/** What a call of an operation takes: its `path` and `query` parameters and its JSON `body`, as the document types them. */
export type OperationInput<Op> = Pick<ParametersOf<Op>, ('path' | 'query') & keyof ParametersOf<Op>> &
  (Op extends { requestBody: { content: { 'application/json': infer Body } } } ? { body: Body } : { body?: never }) & {
    signal?: AbortSignal | undefined;
  };

/** The 2xx JSON body of an operation. */
export type OperationResult<Op> = Op extends Record<string, unknown> ? SuccessResponseJSON<Op> : never;

/** The JSON bodies of an operation's documented error answers (test/client.test-d.ts holds them to the shape `GatewayApiError` reads). */
export type OperationError<Op> = Op extends Record<string, unknown> ? ErrorResponseJSON<Op> : never;

export type OperationCall = <Method extends Uppercase<HttpMethod>, Path extends PathsWithMethod<paths, Lowercase<Method>>>(
  method: Method,
  path: Path,
  input: OperationInput<Operation<Lowercase<Method>, Path>>,
) => Promise<OperationResult<Operation<Lowercase<Method>, Path>>>;

// What the implementation serializes; test/client.test-d.ts holds every operation of `paths` to it.
interface LooseInput {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | null | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export function createRequest({ baseUrl, headers, send }: Connection): OperationCall {
  const root = baseUrl.replace(/\/$/, '');
  const jsonHeaders = { 'content-type': 'application/json', ...headers };
  // The implementation sees the input loosely; `OperationCall` types each call from the document.
  return (async (method: string, path: string, { path: parameters, query, body, signal }: LooseInput) => {
    let url =
      root +
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = String(parameters?.[name] ?? '');
        // '' or a dot segment would make the URL another operation's (`/v4/get-order/..` is `/v4/`).
        if (value === '' || value === '.' || value === '..') throw new RangeError(`${name} must not be ${value ? `'${value}'` : 'empty'}`);
        return encodeURIComponent(value);
      });
    let separator = '?';
    // Parameter names are the document's, plain ASCII; absent values are left out.
    for (const name in query) {
      const value = query[name];
      if (value != null) {
        url += `${separator}${name}=${encodeURIComponent(value)}`;
        separator = '&';
      }
    }
    const [response, text] = await send(
      url,
      body === undefined
        ? { method, headers, signal: signal ?? null }
        : { method, headers: jsonHeaders, body: JSON.stringify(body), signal: signal ?? null },
    );
    // Every 2xx answer of the document has a JSON body.
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new GatewayResponseError({ method, url }, response.status, text, cause);
    }
  }) as OperationCall;
}
