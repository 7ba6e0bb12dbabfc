/**
 * The operations of the combined bundle as the suite reads them: parameters, request-body
 * examples, and for each documented status its media types, required headers and examples.
 */
import { createSchemaValidator, loadBundle, type OpenApiDocument } from '@swap-gateway/openapi';

export const document: OpenApiDocument = loadBundle('gateway');
export const validator = createSchemaValidator(document);

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  /** The parameter's schema, with its `$ref`s inlined (for generating values). */
  schema: Record<string, unknown>;
  /** Where that schema is in the document, for `validator.validate`. */
  schemaPointer: string;
  example?: unknown;
}

export interface DocumentedResponse {
  status: string;
  mediaTypes: string[];
  /** Headers the response must carry, with the JSON pointer of each one's schema. */
  requiredHeaders: Array<{ name: string; schemaPointer: string; type: unknown }>;
  examples: Record<string, unknown>;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/v4/get-order/{id}`. */
  path: string;
  parameters: Parameter[];
  /** The request body: its media types, named examples and schema (with `$ref`s inlined, for generating bodies). */
  requestBody?: { required: boolean; mediaTypes: string[]; examples: Record<string, unknown>; schema: Record<string, unknown> };
  responses: DocumentedResponse[];
}

const methods = ['get', 'put', 'post', 'delete', 'patch'];

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const refOf = (node: unknown) => (node && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string' ? (node as { $ref: string }).$ref : undefined);

/** Follows a local `$ref`. */
export function resolveRef<T = Record<string, unknown>>(node: unknown): T {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string'; hops++) {
    if (hops > 16) throw new Error('reference cycle');
    const segments = (current as { $ref: string }).$ref.replace(/^#\//, '').split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = segments.reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], document);
  }
  return current as T;
}

/** A schema with every `$ref` replaced by its target (the document has no recursive schemas). */
export function inlineSchema(node: unknown, depth = 0): Record<string, unknown> {
  if (depth > 32) throw new Error('schema nested too deeply to inline');
  const resolved = resolveRef<unknown>(node);
  if (Array.isArray(resolved)) return resolved.map((item) => inlineSchema(item, depth + 1)) as unknown as Record<string, unknown>;
  if (!resolved || typeof resolved !== 'object') return resolved as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(resolved)
      .filter(([key]) => !key.startsWith('x-') && key !== 'examples' && key !== 'example')
      .map(([key, value]) => [key, typeof value === 'object' && value !== null ? inlineSchema(value, depth + 1) : value]),
  );
}

function examplesOf(media: { examples?: Record<string, unknown>; example?: unknown } | undefined): Record<string, unknown> {
  const named = Object.entries(media?.examples ?? {}).map(([name, example]) => [name, resolveRef<{ value: unknown }>(example).value] as const);
  return Object.fromEntries(media?.example !== undefined ? [...named, ['example', media.example]] : named);
}

function readOperation(path: string, method: string, raw: Record<string, unknown>): Operation {
  const parameters = ((raw.parameters ?? []) as unknown[]).map((parameter, index) => {
    const resolved = resolveRef<{ name: string; in: Parameter['in']; required?: boolean; schema: unknown; example?: unknown }>(parameter);
    const at = refOf(parameter) ?? `#/paths/${escape(path)}/${method}/parameters/${index}`;
    return { name: resolved.name, in: resolved.in, required: resolved.required ?? false, schema: inlineSchema(resolved.schema), schemaPointer: `${at}/schema`, example: resolved.example };
  });
  const body = raw.requestBody ? resolveRef<{ required?: boolean; content: Record<string, { examples?: Record<string, unknown>; schema?: unknown }> }>(raw.requestBody) : undefined;
  const responses = Object.entries(raw.responses as Record<string, unknown>).map(([status, response]) => {
    const responseAt = refOf(response) ?? `#/paths/${escape(path)}/${method}/responses/${status}`;
    const resolved = resolveRef<{ content?: Record<string, { examples?: Record<string, unknown> }>; headers?: Record<string, unknown> }>(response);
    const firstMedia = Object.values(resolved.content ?? {})[0];
    return {
      status,
      mediaTypes: Object.keys(resolved.content ?? {}),
      requiredHeaders: Object.entries(resolved.headers ?? {})
        .map(([name, header]) => ({ name, header: resolveRef<{ required?: boolean; schema?: { type?: unknown } }>(header), at: refOf(header) ?? `${responseAt}/headers/${escape(name)}` }))
        .filter(({ header }) => header.required)
        .map(({ name, header, at }) => ({ name, schemaPointer: `${at}/schema`, type: header.schema?.type })),
      examples: examplesOf(firstMedia),
    };
  });
  return {
    operationId: String(raw.operationId),
    method: method.toUpperCase(),
    path,
    parameters,
    ...(body && {
      requestBody: {
        required: body.required ?? false,
        mediaTypes: Object.keys(body.content),
        examples: examplesOf(Object.values(body.content)[0]),
        schema: inlineSchema(Object.values(body.content)[0]?.schema ?? {}),
      },
    }),
    responses,
  };
}

export const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  methods.filter((method) => item[method]).map((method) => readOperation(path, method, item[method] as Record<string, unknown>)),
);

export function operation(operationId: string): Operation {
  const found = operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`the document has no operation ${operationId}`);
  return found;
}

const routes = operations.map((candidate) => ({
  operation: candidate,
  pattern: new RegExp(`^${candidate.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The documented operation a concrete request is for, if any. */
export function matchOperation(method: string, pathname: string): Operation | undefined {
  return routes.find(({ operation: candidate, pattern }) => candidate.method === method.toUpperCase() && pattern.test(pathname))?.operation;
}

/** The documented response for a status: exact, then `4XX`-style ranges, then `default`. */
export function documentedResponse(op: Operation, status: number): DocumentedResponse | undefined {
  const exact = op.responses.find((response) => response.status === String(status));
  return exact ?? op.responses.find((response) => response.status.toUpperCase() === `${String(status)[0]}XX`) ?? op.responses.find((response) => response.status === 'default');
}

/** Fills a path template, e.g. `('/v4/get-order/{id}', { id: 'x' })`. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(value);
  });
}
