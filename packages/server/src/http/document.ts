/**
 * The document as the server serves it: @swap-gateway/openapi's resolved operations, and its Ajv
 * validator over the same bundle. Routing, validation and response checking are all driven from
 * these operations, so the document stays the only description of the API; what is here is only
 * what Fastify needs besides.
 */
import {
  createSchemaValidator,
  jsonContent,
  loadBundle,
  readOperations,
  type OpenApiDocument,
  type Operation,
  type SchemaValidator,
} from '@swap-gateway/openapi';

export interface GatewayDocument {
  document: OpenApiDocument;
  validator: SchemaValidator;
  operations: Operation[];
}

export function readDocument(document: OpenApiDocument = loadBundle('gateway')): GatewayDocument {
  return { document, validator: createSchemaValidator(document), operations: readOperations(document) };
}

let bundled: GatewayDocument | undefined;

/**
 * The bundled document, read and compiled once per process and shared by every app in it (its
 * validators hold no state between calls): compiling its schemas cost each app seconds of CPU, and
 * the server's tests start dozens of apps in one process. The document and its operations are
 * frozen, so that a change one app tried to make to them would throw rather than reach the others.
 * Measured (bench/README.md): the server's tests 123.5 → 112.7 s of wall time, 122.1 + 16.3 → 95.4 + 25.3 s of CPU.
 */
export function bundledDocument(): GatewayDocument {
  if (!bundled) {
    bundled = readDocument();
    deepFreeze(bundled.document);
    deepFreeze(bundled.operations);
  }
  return bundled;
}

/** Freezes the value and every object it reaches (one already frozen is taken as done, which ends cycles). */
function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

/** The document's path in Fastify's syntax: `/v4/get-order/{id}` is `/v4/get-order/:id`. */
export const fastifyUrl = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/** A Fastify route's URL as a document path template, so that the one matcher reads both. */
export const documentPath = (url: string): string => url.replace(/:([^/]+)/g, '{$1}');

/** Pointer of the JSON request body schema, when the operation takes one. */
export const requestBodySchema = (operation: Operation): string | undefined => jsonContent(operation.requestBody)?.schemaPointer;

/** Pointers of the JSON response schemas, by status. */
export function responseSchemas(operation: Operation): Record<string, string> {
  return Object.fromEntries(
    Object.entries(operation.responses).flatMap(([status, response]) => {
      const pointer = jsonContent(response)?.schemaPointer;
      return pointer ? [[status, pointer]] : [];
    }),
  );
}
