/**
 * The document as the diff walks it (JSON values), and its operations: a view over the document model
 * of @swap-gateway/openapi (its operations, `$ref` follower and method list), adding what is the
 * diff's own: the path template that survives a renamed parameter, and structured errors.
 */
import { DocumentError, readOperations, resolveRef, type HttpMethod } from '@swap-gateway/openapi';

export { versionOf } from '@swap-gateway/openapi';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** A bundled document as JSON values: every `$ref` is local (`#/...`). */
export type JsonDocument = JsonObject & { paths?: JsonObject };

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

/** Runs a read of the model, its DocumentError (a dangling, external or circular `$ref`, a missing operationId) as INVALID_DOCUMENT. */
function reading<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof DocumentError) throw new SpecDiffError('INVALID_DOCUMENT', error.message, { ref: error.pointer });
    throw error;
  }
}

/**
 * Follows `$ref`s until an object without one: parameters, request bodies,
 * responses and headers are referenced whole. Sibling keys of a `$ref` (3.1
 * allows `description` and `summary` there) do not change the contract.
 */
export function dereference(document: JsonDocument, node: Json | undefined): JsonObject | undefined {
  const value = reading(() => resolveRef<Json | undefined>(document, node));
  return isObject(value) ? value : undefined;
}

export interface Operation {
  /** As a request carries it: `GET`, `POST`... */
  method: Uppercase<HttpMethod>;
  path: string;
  /** The path with its parameters' names erased, so that renaming `{id}` keeps the operation. */
  template: string;
  operationId: string;
  /** Path-level parameters come first; an operation-level one with the same `in` and `name` replaces it. */
  parameters: JsonObject[];
  definition: JsonObject;
}

export const pathTemplate = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** A parsed document of any static type (as `loadBundle` returns it); checked by `asDocument`. */
export type DocumentInput = object;

/** The document, once it is known to be OpenAPI 3.x. */
export function asDocument(input: DocumentInput): JsonDocument {
  const document = input as Json;
  if (!isObject(document) || typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new SpecDiffError('INVALID_DOCUMENT', 'not an OpenAPI 3.x document: the `openapi` field is missing', null);
  }
  return document;
}

/** Every operation of the document, in document order. */
export function listOperations(input: DocumentInput): Operation[] {
  return reading(() => readOperations(asDocument(input))).map((operation) => ({
    method: operation.method,
    path: operation.path,
    template: pathTemplate(operation.path),
    operationId: operation.operationId,
    parameters: operation.parameters.map((parameter) => parameter.definition as JsonObject),
    definition: operation.definition as JsonObject,
  }));
}
