/**
 * The operations of the bundled document, read once: path, method, operationId, and the JSON
 * pointers of the schemas of its parameters, body and responses. Routing, validation and response
 * checking are all driven from this list, so the document stays the only description of the API.
 */
import { createSchemaValidator, loadBundle, type OpenApiDocument, type SchemaValidator } from '@swap-gateway/openapi';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** Pointer of the parameter's schema. */
  schema: string;
  /** The schema's `type`, to turn a query string into the number the schema asks for. */
  type: string | undefined;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The document's path, e.g. `/v4/get-order/{id}`. */
  path: string;
  /** The same path in Fastify's syntax, e.g. `/v4/get-order/:id`. */
  url: string;
  parameters: ParameterSpec[];
  /** Pointer of the JSON request body schema, when the operation takes a body. */
  body?: string;
  /** Pointer of the JSON response schema, by status. */
  responses: Record<string, string>;
  /** The error codes each failure status's examples carry, by status (what http/failures.ts maps). */
  errorCodes: Record<string, string[]>;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface GatewayDocument {
  document: OpenApiDocument;
  validator: SchemaValidator;
  operations: Operation[];
}

export function readDocument(document: OpenApiDocument = loadBundle('gateway')): GatewayDocument {
  const validator = createSchemaValidator(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!methods.includes(method)) continue;
      const operation = value as Record<string, unknown>;
      const pointerOf = (suffix: string[]) => `#/${['paths', path, method, ...suffix].map(escape).join('/')}`;
      const parameters = ((operation.parameters ?? []) as unknown[]).map((parameter, index) => {
        const { node, pointer } = resolve(document, parameter, pointerOf(['parameters', String(index)]));
        const spec = node as { name: string; in: ParameterSpec['in']; required?: boolean; schema: unknown };
        const schema = resolve(document, spec.schema, `${pointer}/schema`);
        return { name: spec.name, in: spec.in, required: spec.required === true, schema: schema.pointer, type: (schema.node as { type?: string }).type };
      });
      const requestBody = operation.requestBody
        ? resolve(document, operation.requestBody, pointerOf(['requestBody']))
        : undefined;
      const body = requestBody && hasJson(requestBody.node) ? validator.requestBodyPointer(path, method) : undefined;
      const responses: Record<string, string> = {};
      const errorCodes: Record<string, string[]> = {};
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, unknown>)) {
        const { node, pointer } = resolve(document, response, pointerOf(['responses', status]));
        if (hasJson(node)) responses[status] = validator.responsePointer(path, method, status);
        if (Number(status) >= 400) errorCodes[status] = exampleCodes(document, node, pointer);
      }
      operations.push({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        url: path.replace(/\{([^}]+)\}/g, ':$1'),
        parameters,
        body,
        responses,
        errorCodes,
      });
    }
  }
  return { document, validator, operations };
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function hasJson(node: unknown): boolean {
  const content = (node as { content?: Record<string, unknown> }).content;
  return Boolean(content && 'application/json' in content);
}

/** The `code` of every example of a response's JSON body. */
function exampleCodes(document: unknown, response: unknown, pointer: string): string[] {
  const examples = (response as { content?: Record<string, { examples?: Record<string, unknown> }> }).content?.['application/json']?.examples ?? {};
  const codes = Object.entries(examples).map(([name, example]) => (resolve(document, example, `${pointer}/content/application~1json/examples/${escape(name)}`).node as { value?: { code?: unknown } }).value?.code);
  return [...new Set(codes.filter((code): code is string => typeof code === 'string'))];
}

/** Follows local `$ref`s and returns the node with the pointer where it lives. */
function resolve(document: unknown, node: unknown, pointer: string): { node: unknown; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; typeof (current as { $ref?: unknown })?.$ref === 'string'; hops++) {
    if (hops > 16) throw new Error(`reference cycle at ${pointer}`);
    at = (current as { $ref: string }).$ref;
    const segments = at.slice(2).split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = segments.reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], document);
  }
  return { node: current, pointer: at };
}
