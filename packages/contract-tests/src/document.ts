/**
 * The combined bundle as the suite reads it: @swap-gateway/openapi's resolved operations and its
 * validator, with what only the suite needs besides (schemas inlined for json-schema-faker, the
 * example values of a body, filled path templates).
 */
import {
  createSchemaValidator,
  loadBundle,
  readOperations,
  resolveRef,
  type MediaContent,
  type OpenApiDocument,
  type Operation,
} from '@swap-gateway/openapi';

export const document: OpenApiDocument = loadBundle('gateway');
export const validator = createSchemaValidator(document);
export const operations: Operation[] = readOperations(document);

export function operation(operationId: string): Operation {
  const found = operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`the document has no operation ${operationId}`);
  return found;
}

/** A schema with every `$ref` replaced by its target, for generating values (the document has no recursive schemas). */
export function inlineSchema(node: unknown, depth = 0): Record<string, unknown> {
  if (depth > 32) throw new Error('schema nested too deeply to inline');
  const resolved = resolveRef<unknown>(document, node);
  if (Array.isArray(resolved)) return resolved.map((item) => inlineSchema(item, depth + 1)) as unknown as Record<string, unknown>;
  if (!resolved || typeof resolved !== 'object') return resolved as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(resolved)
      .filter(([key]) => !key.startsWith('x-') && key !== 'examples' && key !== 'example')
      .map(([key, value]) => [key, typeof value === 'object' && value !== null ? inlineSchema(value, depth + 1) : value]),
  );
}

/** The first media type of a body (the one the suite sends and expects): its schema and examples. */
export const firstMedia = (part: { content: Record<string, MediaContent> } | undefined): MediaContent | undefined =>
  Object.values(part?.content ?? {})[0];

/** The named example values of a body's first media type. */
export const exampleValues = (part: { content: Record<string, MediaContent> } | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(firstMedia(part)?.examples ?? {}).map(([name, example]) => [name, example.value]));

/** Fills a path template, e.g. `('/v4/get-order/{id}', { id: 'x' })`. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return encodeURIComponent(value);
  });
}
