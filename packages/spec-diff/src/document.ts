/**
 * The document as the diff walks it (JSON values), and its operations: the document model of
 * @swap-gateway/openapi (its operations, `$ref` follower and JSON types), read with the diff's own
 * additions: the path template that survives a renamed parameter, and structured errors.
 */
import { DocumentError, isJsonObject, readOperations, resolveRef, type Json, type JsonObject, type Operation } from '@swap-gateway/openapi';

export { isJsonObject, versionOf, type Json, type JsonObject } from '@swap-gateway/openapi';

/** A bundled document as JSON values: every `$ref` is local (`#/...`). */
export type JsonDocument = JsonObject & { paths?: JsonObject };

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
  return isJsonObject(value) ? value : undefined;
}

/** An operation or parameter object of the model as the JSON the diff compares. */
export const definitionOf = (part: Operation | Operation['parameters'][number]): JsonObject => part.definition as JsonObject;

/** The path with its parameters' names erased, so that renaming `{id}` keeps the operation. */
export const pathTemplate = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** A parsed document of any static type (as `loadBundle` returns it); checked by `asDocument`. */
export type DocumentInput = object;

/** The document, once it is known to be OpenAPI 3.x. */
export function asDocument(input: DocumentInput): JsonDocument {
  const document = input as Json;
  if (!isJsonObject(document) || typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new SpecDiffError('INVALID_DOCUMENT', 'not an OpenAPI 3.x document: the `openapi` field is missing', null);
  }
  return document;
}

/** Every operation of the document, in document order, as the model reads it. */
export function documentOperations(input: DocumentInput): Operation[] {
  return reading(() => readOperations(asDocument(input)));
}
