/**
 * The bundled Swap Gateway document. The bundles are produced by `pnpm build`
 * from the hand-authored sources in openapi/ and are never edited by hand.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { listOpenQuestions, type OpenQuestion } from './open-questions.js';

/** Which bundle: both versions, or one. */
export type BundleName = 'gateway' | 'gateway-v4' | 'gateway-v3';

/** Absolute path of a bundle file. */
export function bundlePath(name: BundleName = 'gateway', format: 'json' | 'yaml' = 'json'): string {
  return fileURLToPath(new URL(`./${name}.${format}`, import.meta.url));
}

/** The parsed bundle. Each call returns a fresh copy, safe to mutate. */
export function loadBundle(name: BundleName = 'gateway'): OpenApiDocument {
  return JSON.parse(readFileSync(bundlePath(name, 'json'), 'utf8')) as OpenApiDocument;
}

/** The parts of an OpenAPI 3.1 document this package's helpers read; the rest stays open. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export { createSchemaValidator, type SchemaValidator } from './validator.js';
export { isJsonObject, type Json, type JsonObject } from './json.js';
export { DocumentError, escapePointer, pointerSegments, pointerTo, resolveReference, resolveRef, valueAt } from './pointer.js';
export {
  documentedResponse,
  httpMethods,
  jsonContent,
  readOperations,
  versionOf,
  type Example,
  type HttpMethod,
  type MediaContent,
  type Operation,
  type Parameter,
  type ParameterLocation,
  type RequestBody,
  type Response,
  type ResponseHeader,
  type Schema,
} from './operations.js';
export { matchOperation, requestMethods, type OperationMatch, type RouteTemplate } from './match.js';
export { coerceParameter } from './coerce.js';
export {
  detailShapesByCode,
  detailsShapeProblem,
  documentedErrorCodes,
  type CodeDetailShape,
  type DocumentedErrorCode,
} from './error-codes.js';
export {
  apiKeyLength,
  apiKeyPointer,
  containsNul,
  documentedCodes,
  documentedErrorBodies,
  emptyPathParameterAnswer,
  failureBody,
  failureStatuses,
  malformedRequestAnswer,
  readApiKey,
  type DocumentedFailure,
  type ErrorBody,
} from './edge.js';
export {
  acceptAnyHost,
  answerConnectAsRequest,
  answerClientError,
  clientErrorAnswer,
  ignoreUnknownExpectations,
  lacksHost,
  targetAsPath,
  type ClientError,
} from './client-error.js';
