/**
 * The operations of the served document, as the front needs them: which operation a request is
 * for, whether that operation documents a 400, and which named examples its success response has.
 */
import type { OpenApiDocument } from '@swap-gateway/openapi';

export interface MockOperation {
  operationId: string;
  method: string;
  path: string;
  /** Query, path and header parameter names, as the document spells them. */
  parameterNames: string[];
  documentsBadRequest: boolean;
  /** Documented statuses, e.g. `['200', '400', '401']`. */
  statuses: string[];
  /** Whether the operation reads a query string at all. */
  takesQuery: boolean;
  /** The query parameters, with the JSON pointer of each one's schema and its type. */
  queryParameters: Array<{ name: string; schemaPointer: string; type: unknown }>;
  /** Names of the examples of the 2xx response, for `Prefer: example=<name>`. */
  successExamples: Set<string>;
}

export type RouteMatch =
  | { kind: 'operation'; operation: MockOperation }
  | { kind: 'unknown-path' }
  | { kind: 'unknown-method'; allowed: string[] };

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function createRouter(document: OpenApiDocument): (method: string, pathname: string) => RouteMatch {
  const routes = Object.entries(document.paths).map(([path, item]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    operations: new Map(
      methods
        .filter((method) => item[method])
        .map((method) => [method, describeOperation(document, path, method, item[method] as Record<string, unknown>)]),
    ),
  }));
  return (method, pathname) => {
    const route = routes.find(({ pattern }) => pattern.test(pathname));
    if (!route) return { kind: 'unknown-path' };
    // HEAD is GET without the body, as HTTP servers (and the sandbox server) answer it.
    const operation = route.operations.get(method.toLowerCase()) ?? (method.toUpperCase() === 'HEAD' ? route.operations.get('get') : undefined);
    if (!operation) {
      const allowed = [...route.operations.keys()].map((name) => name.toUpperCase());
      return { kind: 'unknown-method', allowed: allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed };
    }
    return { kind: 'operation', operation };
  };
}

function describeOperation(document: OpenApiDocument, path: string, method: string, operation: Record<string, unknown>): MockOperation {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  const success = Object.entries(responses).find(([status]) => status.startsWith('2'));
  const successResponse = success ? (resolve(document, success[1]) as { content?: Record<string, { examples?: object }> }) : undefined;
  const examples = successResponse?.content?.['application/json']?.examples ?? {};
  const parameters = ((operation.parameters ?? []) as unknown[]).map((parameter, index) => ({
    ...(resolve(document, parameter) as { name: string; in: string; schema?: { type?: unknown; $ref?: string } }),
    at: (parameter as { $ref?: string }).$ref ?? `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/parameters/${index}`,
  }));
  return {
    operationId: String(operation.operationId),
    method: method.toUpperCase(),
    path,
    parameterNames: parameters.map(({ name }) => name),
    documentsBadRequest: '400' in responses,
    statuses: Object.keys(responses),
    takesQuery: parameters.some((parameter) => parameter.in === 'query'),
    queryParameters: parameters
      .filter((parameter) => parameter.in === 'query')
      .map(({ name, schema, at }) => ({ name, schemaPointer: `${at}/schema`, type: (resolve(document, schema) as { type?: unknown } | undefined)?.type })),
    successExamples: new Set(Object.keys(examples)),
  };
}

/** Follows a local `$ref` of the bundle (a response or parameter given by reference to components). */
function resolve(document: OpenApiDocument, node: unknown): unknown {
  let current = node;
  while (current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    const segments = (current as { $ref: string }).$ref.replace(/^#\//, '').split('/');
    current = segments.reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  }
  return current;
}
