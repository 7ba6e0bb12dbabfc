/** Reading the bundle's schemas the way a reader of the description would: through $ref and allOf. */
import { resolveRef, type OpenApiDocument } from '@swap-gateway/openapi';

export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
};

/** The schema a node refers to, through @swap-gateway/openapi's one `$ref` follower. */
export const resolve = (document: OpenApiDocument, schema: Schema | undefined): Schema => resolveRef<Schema>(document, schema ?? {});

/** Properties and required names of an object schema, merged over its allOf members. */
export function effective(
  document: OpenApiDocument,
  schema: Schema | undefined,
): { properties: Record<string, Schema>; required: Set<string> } {
  const resolved = resolve(document, schema);
  const properties: Record<string, Schema> = { ...(resolved.properties ?? {}) };
  const required = new Set(resolved.required ?? []);
  for (const member of resolved.allOf ?? []) {
    const inner = effective(document, member);
    Object.assign(properties, inner.properties);
    for (const name of inner.required) required.add(name);
  }
  return { properties, required };
}

export function componentSchema(document: OpenApiDocument, name: string): Schema {
  const schema = (document.components.schemas as Record<string, Schema>)[name];
  if (!schema) throw new Error(`no component schema ${name}`);
  return schema;
}

/** The JSON types a schema admits, looking through $ref, oneOf/anyOf branches and type arrays. */
export function types(document: OpenApiDocument, schema: Schema | undefined): Set<string> {
  const resolved = resolve(document, schema);
  const found = new Set<string>([resolved.type ?? []].flat());
  if (resolved.const !== undefined) found.add(typeof resolved.const);
  for (const member of [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.allOf ?? [])])
    for (const type of types(document, member)) found.add(type);
  if (found.size === 0 && resolved.properties) found.add('object');
  return found;
}

/** The branches of a union, resolved. */
export function branches(document: OpenApiDocument, schema: Schema): Schema[] {
  const resolved = resolve(document, schema);
  return [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])].map((branch) => resolve(document, branch));
}
