/**
 * Which operation a request is for, by method and path, matched against the document's path
 * templates: the one URL matcher of the project (the server's 404/405 and failure statuses, the
 * mock's front and the contract suite's bookkeeping all ask it).
 *
 * - HEAD is its GET, as HTTP servers answer it, unless the document has a HEAD operation.
 * - A template parameter matches one path segment, raw (not percent-decoded) and possibly empty:
 *   an empty segment still names the operation (`GET /v4/get-order/` is get-order), so that the
 *   operation decides how to answer it (see `emptyPathParameterAnswer`).
 * - A path whose template has other methods but not this one is `method-not-allowed`, with the
 *   methods it allows for the `Allow` header (HEAD after GET); there an empty segment counts as no
 *   path, since it names no operation to allow.
 * - The query string, if the target has one, is not part of the match.
 */

/** A route as the document writes it: a method and a path template such as `/v4/get-order/{id}`. */
export interface RouteTemplate {
  method: string;
  path: string;
}

export type OperationMatch<T> =
  | { kind: 'operation'; operation: T /** Raw text of each path parameter, by name. */; pathParameters: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'no-operation' };

interface CompiledRoute<T> {
  route: T;
  method: string;
  pattern: RegExp;
  names: string[];
}

const compiledRoutes = new WeakMap<readonly RouteTemplate[], CompiledRoute<RouteTemplate>[]>();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile<T extends RouteTemplate>(routes: readonly T[]): CompiledRoute<T>[] {
  let compiled = compiledRoutes.get(routes);
  // A list still growing (a server registering its routes) is compiled again when it has grown.
  if (compiled?.length !== routes.length) {
    compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          if (!/^\{[^}]+\}$/.test(part)) return escapeRegExp(part);
          names.push(part.slice(1, -1));
          return '([^/]*)';
        })
        .join('');
      return { route, method: route.method.toUpperCase(), pattern: new RegExp(`^${source}$`), names };
    });
    compiledRoutes.set(routes, compiled);
  }
  return compiled as CompiledRoute<T>[];
}

/** Every method a request to these routes may use, HEAD after each GET: for `Allow` and for CORS's allowed methods. */
export function requestMethods(routes: readonly RouteTemplate[]): string[] {
  return [...new Set(routes.flatMap(({ method }) => (method.toUpperCase() === 'GET' ? ['GET', 'HEAD'] : [method.toUpperCase()])))];
}

export function matchOperation<T extends RouteTemplate>(operations: readonly T[], method: string, target: string): OperationMatch<T> {
  const path = target.split('?')[0]!;
  const requested = method.toUpperCase();
  const matching = compile(operations).flatMap((entry) => {
    const found = entry.pattern.exec(path);
    return found ? [{ entry, values: found.slice(1) }] : [];
  });
  const hasHead = matching.some(({ entry }) => entry.method === 'HEAD');
  const wanted = requested === 'HEAD' && !hasHead ? 'GET' : requested;
  const hit = matching.find(({ entry }) => entry.method === wanted);
  if (hit)
    return {
      kind: 'operation',
      operation: hit.entry.route,
      pathParameters: Object.fromEntries(hit.entry.names.map((name, index) => [name, hit.values[index]!])),
    };
  const allowed = requestMethods(matching.filter(({ values }) => values.every((value) => value !== '')).map(({ entry }) => entry.route));
  return allowed.length ? { kind: 'method-not-allowed', allowed } : { kind: 'no-operation' };
}
