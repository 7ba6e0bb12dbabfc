/**
 * The type of `gateway.api`: openapi-fetch's `Client` over the document's `paths`, with what its
 * calls really resolve to. openapi-fetch types every answer as `{ data } | { error }`; the client's
 * transport throws on every non-2xx answer, so the `error` branch never happens and a call resolves
 * to `{ data, response }` with the success body.
 */
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { paths } from '@swap-gateway/types';

// biome-ignore lint/suspicious/noExplicitAny: openapi-fetch's own bound for an operation; an interface is not a Record of unknown.
type OperationBound = Record<string | number, any>;

/** The success branch of openapi-fetch's answer: the 2xx body as `data`, and the `Response`. */
export type GatewayApiResponse<Operation, Init> = Operation extends OperationBound
  ? Omit<Exclude<FetchResponse<Operation, Init, MediaType>, { error: unknown }>, 'error'>
  : never;

/** openapi-fetch's second argument: required when the operation has required parameters or a body. */
type InitParam<Init> = RequiredKeysOf<Init> extends never
  ? [(Init & { [key: string]: unknown })?]
  : [Init & { [key: string]: unknown }];

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
