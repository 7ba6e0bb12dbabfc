/**
 * The parts of a bundled OpenAPI 3.1 document that the diff reads, and the two
 * ways of reaching into it: local `$ref`s and the list of operations.
 */

export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** A bundled document: every `$ref` is local (`#/...`). */
export type OpenApiDocument = JsonObject & { paths?: JsonObject };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The structured error every bad input gets: a stable code, a sentence and what was wrong. */
export class SpecDiffError extends Error {
  constructor(
    readonly code: 'INVALID_DOCUMENT' | 'INVALID_ARGUMENTS' | 'GIT_FAILED' | 'BUNDLE_FAILED',
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'SpecDiffError';
  }

  toJSON(): { code: string; error: string; details: Record<string, unknown> | null } {
    return { code: this.code, error: this.message, details: this.details };
  }
}

const decodePointerToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Follows one local `$ref` (`#/components/schemas/X`). */
export function resolvePointer(document: OpenApiDocument, ref: string): Json {
  if (!ref.startsWith('#')) {
    throw new SpecDiffError('INVALID_DOCUMENT', `only local $refs are read (bundle the document first): ${ref}`, { ref });
  }
  let node: Json = document;
  for (const token of ref.slice(1).split('/').filter(Boolean).map(decodePointerToken)) {
    const next: Json | undefined = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
    if (next === undefined) throw new SpecDiffError('INVALID_DOCUMENT', `unresolved $ref ${ref}`, { ref });
    node = next;
  }
  return node;
}

/**
 * Follows `$ref`s until an object without one: parameters, request bodies,
 * responses and headers are referenced whole. Sibling keys of a `$ref` (3.1
 * allows `description` and `summary` there) do not change the contract.
 */
export function dereference(document: OpenApiDocument, node: Json | undefined): JsonObject | undefined {
  const seen = new Set<string>();
  let current = node;
  while (isObject(current) && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new SpecDiffError('INVALID_DOCUMENT', `circular $ref ${current.$ref}`, { ref: current.$ref });
    seen.add(current.$ref);
    current = resolvePointer(document, current.$ref);
  }
  return isObject(current) ? current : undefined;
}

export interface Operation {
  method: (typeof HTTP_METHODS)[number];
  path: string;
  /** The path with its parameters' names erased, so that renaming `{id}` keeps the operation. */
  template: string;
  operationId: string | undefined;
  /** Path-level parameters come first; an operation-level one with the same `in` and `name` replaces it. */
  parameters: JsonObject[];
  definition: JsonObject;
}

export const pathTemplate = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** A parsed document of any static type (as `loadBundle` returns it); checked by `asDocument`. */
export type DocumentInput = object;

/** The document, once it is known to be OpenAPI 3.x. */
export function asDocument(input: DocumentInput): OpenApiDocument {
  const document = input as Json;
  if (!isObject(document) || typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new SpecDiffError('INVALID_DOCUMENT', 'not an OpenAPI 3.x document: the `openapi` field is missing', null);
  }
  return document;
}

/** Every operation of the document, in document order. */
export function listOperations(input: DocumentInput): Operation[] {
  const document = asDocument(input);
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = dereference(document, rawItem);
    if (!item) continue;
    const shared = asArray(item.parameters).map((parameter) => dereference(document, parameter)).filter(isDefined);
    for (const method of HTTP_METHODS) {
      const definition = item[method];
      if (!isObject(definition)) continue;
      const own = asArray(definition.parameters).map((parameter) => dereference(document, parameter)).filter(isDefined);
      const ownKeys = new Set(own.map(parameterIdentity));
      operations.push({
        method,
        path,
        template: pathTemplate(path),
        operationId: typeof definition.operationId === 'string' ? definition.operationId : undefined,
        parameters: [...shared.filter((parameter) => !ownKeys.has(parameterIdentity(parameter))), ...own],
        definition,
      });
    }
  }
  return operations;
}

const parameterIdentity = (parameter: JsonObject): string => `${String(parameter.in)}:${String(parameter.name)}`;

export const asArray = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);

export const isDefined = <T>(value: T | undefined): value is T => value !== undefined;

/** The first path segment when it is a version (`/v4/...` gives `v4`). */
export function versionOf(path: string): string | undefined {
  return /^\/(v\d+)(?:\/|$)/i.exec(path)?.[1]?.toLowerCase();
}
