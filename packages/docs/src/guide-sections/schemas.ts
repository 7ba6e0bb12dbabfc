/**
 * A component schema's fields as a table, read from the bundle as integrators read it (the build
 * gives it through integrator-text.ts): name, whether it is required, its type (a referenced model by
 * name) and its description. The document's notes for API review are the open-questions page's.
 */
import type { OpenApiDocument } from '@swap-gateway/openapi';
import { resolveRef } from '@swap-gateway/openapi';
import { code, escapeCell, table } from '../markdown-text.js';

interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  const?: unknown;
  description?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  allOf?: Schema[];
}

const modelName = (ref: string) => ref.split('/').at(-1) ?? ref;

function typeOf(document: OpenApiDocument, schema: Schema): string {
  if (schema.$ref) return code(modelName(schema.$ref));
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.allOf ? schema.allOf.map((part) => typeOf(document, part)).join(' and ') : 'any';
  return types.map((type) => (type === 'array' && schema.items ? `array of ${typeOf(document, schema.items)}` : type)).join(' or ');
}

/** The properties of a schema and of the `allOf` parts it is made of, with what each requires. */
function fieldsOf(document: OpenApiDocument, node: Schema): Array<{ name: string; schema: Schema; required: boolean }> {
  const schema = resolveRef<Schema>(document, node);
  const own = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    schema: property,
    required: schema.required?.includes(name) ?? false,
  }));
  return [...own, ...(schema.allOf ?? []).flatMap((part) => fieldsOf(document, part))];
}

export function schemaFieldsMarkdown(document: OpenApiDocument, schemaName: string): string {
  const schema = document.components.schemas?.[schemaName];
  if (!schema) throw new Error(`generated:fields:${schemaName}: the bundle has no schema ${schemaName}`);
  const fields = fieldsOf(document, schema as Schema);
  if (fields.length === 0) throw new Error(`generated:fields:${schemaName}: the schema has no fields to list`);
  const rows = fields.map(({ name, schema: property, required }) => {
    // A field given as a reference carries its own description, or its model's.
    const described = property.description ?? resolveRef<Schema>(document, property).description ?? '';
    return [code(name), required ? 'yes' : 'no', typeOf(document, property), escapeCell(described)];
  });
  return table(['Field', 'Required', 'Type', 'Notes'], rows);
}
