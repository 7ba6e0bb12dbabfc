/**
 * What the site reads from a bundle: its operations, and the values behind its
 * local `$ref`s. Everything the pages say about the API comes through here, so
 * that a change to the document changes the site.
 */
import type { OpenApiDocument } from '@swap-gateway/openapi';

export type ApiVersion = 'v4' | 'v3';

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  version: ApiVersion;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** The operation object itself, as it stands in the bundle. */
  node: Record<string, unknown>;
}

/** The object a local `$ref` points at (followed until it is no longer a reference). */
export function resolve<T = Record<string, unknown>>(document: OpenApiDocument, node: unknown): T {
  let current = node;
  for (let hops = 0; isReference(current); hops++) {
    if (hops > 32) throw new Error(`reference cycle at ${current.$ref}`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`external reference ${ref} in a bundle`);
    current = ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], document);
    if (current === undefined) throw new Error(`the bundle has nothing at ${ref}`);
  }
  return current as T;
}

function isReference(node: unknown): node is { $ref: string } {
  return typeof node === 'object' && node !== null && typeof (node as { $ref?: unknown }).$ref === 'string';
}

/** Every operation of a bundle, in document order. The version is the first path segment. */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const version = path.split('/')[1];
    if (version !== 'v4' && version !== 'v3') throw new Error(`path ${path} has no version segment the site knows`);
    for (const method of httpMethods) {
      const node = pathItem[method] as Record<string, unknown> | undefined;
      if (!node) continue;
      if (typeof node.operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      operations.push({
        version,
        operationId: node.operationId,
        method,
        path,
        summary: String(node.summary ?? ''),
        description: String(node.description ?? ''),
        node,
      });
    }
  }
  return operations;
}

export interface DocumentedResponse {
  operation: Operation;
  status: string;
  /** The response object, its `$ref` followed. */
  response: Record<string, unknown>;
}

/** Every response of every operation, `$ref`s followed. */
export function listResponses(document: OpenApiDocument): DocumentedResponse[] {
  return listOperations(document).flatMap((operation) =>
    Object.entries((operation.node.responses ?? {}) as Record<string, unknown>).map(([status, response]) => ({
      operation,
      status,
      response: resolve(document, response),
    })),
  );
}

/** The named examples of a response's JSON body, `$ref`s followed. */
export function jsonExamples(document: OpenApiDocument, response: Record<string, unknown>): Array<{ name: string; summary: string; value: unknown }> {
  const content = (response.content ?? {}) as Record<string, { examples?: Record<string, unknown> }>;
  const examples = content['application/json']?.examples ?? {};
  return Object.entries(examples).map(([name, example]) => {
    const resolved = resolve<{ summary?: string; value?: unknown }>(document, example);
    return { name, summary: resolved.summary ?? name, value: resolved.value };
  });
}

/** The anchor Redoc gives an operation in its reference page (`#/v4/getquotev4`). */
export function referenceAnchor(operation: Pick<Operation, 'version' | 'operationId'>): string {
  return `#/${operation.version}/${operation.operationId.toLowerCase()}`;
}
