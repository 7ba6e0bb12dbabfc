/**
 * Turns a JSON Schema 2020-12 (as OpenAPI 3.1 uses it) into the flat list of
 * fields a client sees: one entry per property path (`offramp.feeBreakdown.solverFee`,
 * `affiliates[]`), each with the values it can take. Two such lists compare
 * field by field, whatever the `$ref`s, `allOf`s and `oneOf`s that produced them.
 *
 * - `$ref` is followed (a recursive one stops with an unconstrained field).
 * - `allOf` intersects: a field is required if any member requires it, its types
 *   and enum are those every member allows.
 * - `oneOf` / `anyOf` unite: a property of several branches is required where
 *   every branch that has it requires it; types and enums add up; the branches
 *   themselves are listed as variants (by title, tag, single key or schema name).
 */
import { dereference, isJsonObject, type Json, type JsonObject, type JsonDocument } from './document.js';

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** Keywords that bound a value; the first list is lower bounds, the second upper bounds. */
export const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
export const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
/** Keywords whose value is a rule: adding one narrows, removing one widens, changing one does both. */
export const RULES = ['pattern', 'format', 'multipleOf'] as const;
type ConstraintKey = (typeof LOWER_BOUNDS)[number] | (typeof UPPER_BOUNDS)[number] | (typeof RULES)[number];

export interface SchemaSummary {
  /** The JSON types allowed; undefined when any is. `null` among them is nullability. */
  types: Set<JsonType> | undefined;
  /** JSON-encoded allowed values; undefined when unrestricted. */
  values: Set<string> | undefined;
  constraints: Map<ConstraintKey, Json>;
  properties: Map<string, { schema: SchemaSummary; required: boolean }>;
  /** `additionalProperties: false` (or `unevaluatedProperties: false`): unknown properties are refused. */
  closed: boolean;
  items: SchemaSummary | undefined;
  /** Labels of the `oneOf` / `anyOf` branches, when the schema is a union. */
  variants: string[] | undefined;
  /** The component name when the schema is a `$ref` to `#/components/schemas/<name>`. */
  name: string | undefined;
}

const unconstrained = (): SchemaSummary => ({
  types: undefined,
  values: undefined,
  constraints: new Map(),
  properties: new Map(),
  closed: false,
  items: undefined,
  variants: undefined,
  name: undefined,
});

const ALL_CONSTRAINTS: readonly ConstraintKey[] = [...LOWER_BOUNDS, ...UPPER_BOUNDS, ...RULES];

export function summarizeSchema(document: JsonDocument, schema: Json | undefined): SchemaSummary {
  return summarize(document, schema, []);
}

function summarize(document: JsonDocument, schema: Json | undefined, refStack: string[]): SchemaSummary {
  if (schema === true || schema === undefined) return unconstrained();
  if (schema === false) return { ...unconstrained(), types: new Set() };
  if (!isJsonObject(schema)) return unconstrained();

  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const name = ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
    if (refStack.includes(ref)) return { ...unconstrained(), name };
    const { $ref: _ref, ...siblings } = schema;
    const target = summarize(document, dereference(document, { $ref: ref }), [...refStack, ref]);
    // 3.1 allows keywords beside a $ref; they apply together with the target.
    const own = hasAssertions(siblings) ? intersect(target, summarize(document, siblings, refStack)) : target;
    return { ...own, name: name ?? own.name };
  }

  let summary = ownKeywords(document, schema, refStack);
  for (const member of asSchemas(schema.allOf)) summary = intersect(summary, summarize(document, member, refStack));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = asSchemas(schema[keyword]);
    if (branches.length === 0) continue;
    const union = unite(branches.map((branch) => summarize(document, branch, refStack)));
    union.variants = branches.map((branch, index) => variantLabel(document, branch, index));
    summary = intersect(summary, union);
  }
  return summary;
}

const asSchemas = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);

const ANNOTATIONS = new Set([
  'description',
  'title',
  'summary',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  '$comment',
]);
const hasAssertions = (schema: JsonObject): boolean => Object.keys(schema).some((key) => !ANNOTATIONS.has(key) && !key.startsWith('x-'));

function ownKeywords(document: JsonDocument, schema: JsonObject, refStack: string[]): SchemaSummary {
  const summary = unconstrained();
  if (typeof schema.type === 'string') summary.types = new Set([schema.type as JsonType]);
  if (Array.isArray(schema.type)) summary.types = new Set(schema.type as JsonType[]);
  if (Array.isArray(schema.enum)) summary.values = new Set(schema.enum.map((value) => JSON.stringify(value)));
  if (schema.const !== undefined) summary.values = new Set([JSON.stringify(schema.const)]);
  for (const key of ALL_CONSTRAINTS) if (schema[key] !== undefined) summary.constraints.set(key, schema[key]);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  if (isJsonObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      summary.properties.set(name, { schema: summarize(document, property, refStack), required: required.has(name) });
    }
  }
  // A name in `required` without a schema of its own is still a required, unconstrained property.
  for (const name of required) {
    if (!summary.properties.has(name)) summary.properties.set(name, { schema: unconstrained(), required: true });
  }
  summary.closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
  if (schema.items !== undefined) summary.items = summarize(document, schema.items, refStack);
  return summary;
}

/** Both schemas apply (allOf, or a schema's own keywords beside its oneOf). */
function intersect(a: SchemaSummary, b: SchemaSummary): SchemaSummary {
  const properties = new Map(a.properties);
  for (const [name, property] of b.properties) {
    const existing = properties.get(name);
    properties.set(
      name,
      existing ? { schema: intersect(existing.schema, property.schema), required: existing.required || property.required } : property,
    );
  }
  const constraints = new Map(a.constraints);
  for (const [key, value] of b.constraints) constraints.set(key, value);
  return {
    types: intersectTypes(a.types, b.types),
    values: a.values && b.values ? new Set([...a.values].filter((value) => b.values!.has(value))) : (a.values ?? b.values),
    constraints,
    properties,
    closed: a.closed || b.closed,
    items: a.items && b.items ? intersect(a.items, b.items) : (a.items ?? b.items),
    variants: a.variants ?? b.variants,
    // An intersection of named schemas is none of them.
    name: undefined,
  };
}

function intersectTypes(a: Set<JsonType> | undefined, b: Set<JsonType> | undefined): Set<JsonType> | undefined {
  if (!a) return b;
  if (!b) return a;
  const result = new Set<JsonType>();
  for (const type of a) {
    if (b.has(type)) result.add(type);
    else if (type === 'integer' && b.has('number')) result.add('integer');
    else if (type === 'number' && b.has('integer')) result.add('integer');
  }
  return result;
}

/** One of the schemas applies (oneOf / anyOf). */
function unite(branches: SchemaSummary[]): SchemaSummary {
  const properties = new Map<string, { schema: SchemaSummary; required: boolean }>();
  for (const name of new Set(branches.flatMap((branch) => [...branch.properties.keys()]))) {
    const occurrences = branches.map((branch) => branch.properties.get(name)).filter((entry) => entry !== undefined);
    properties.set(name, {
      schema: occurrences.length === 1 ? occurrences[0]!.schema : unite(occurrences.map((entry) => entry.schema)),
      required: occurrences.every((entry) => entry.required),
    });
  }
  const objectBranches = branches.filter((branch) => !branch.types || branch.types.has('object'));
  const itemBranches = branches.map((branch) => branch.items).filter((items) => items !== undefined);
  return {
    types: branches.some((branch) => !branch.types) ? undefined : new Set(branches.flatMap((branch) => [...branch.types!])),
    values: uniteValues(branches),
    // A bound holds for the union only where every branch has the same one.
    constraints: new Map(
      [...(branches[0]?.constraints ?? [])].filter(([key, value]) =>
        branches.every((branch) => JSON.stringify(branch.constraints.get(key)) === JSON.stringify(value)),
      ),
    ),
    properties,
    closed: objectBranches.length > 0 && objectBranches.every((branch) => branch.closed),
    items: itemBranches.length === 0 ? undefined : itemBranches.length === 1 ? itemBranches[0] : unite(itemBranches),
    variants: undefined,
    name: undefined,
  };
}

/**
 * A branch that only allows `null` adds `null` to the values rather than lifting
 * the restriction, so `oneOf: [{ enum: [A] }, { type: 'null' }]` allows A and null.
 */
function uniteValues(branches: SchemaSummary[]): Set<string> | undefined {
  const values = new Set<string>();
  for (const branch of branches) {
    if (branch.values) for (const value of branch.values) values.add(value);
    else if (branch.types && [...branch.types].every((type) => type === 'null')) values.add('null');
    else return undefined;
  }
  return values;
}

/** How a branch is named in the report: its title, its tag (`type=evm`), its single key, its schema name. */
function variantLabel(document: JsonDocument, branch: Json, index: number): string {
  const resolved = isJsonObject(branch) ? (dereference(document, branch) ?? {}) : {};
  if (typeof resolved.title === 'string') return resolved.title;
  const required = Array.isArray(resolved.required) ? resolved.required.map(String) : [];
  const properties = isJsonObject(resolved.properties) ? resolved.properties : {};
  for (const name of required) {
    const property = properties[name];
    if (isJsonObject(property) && property.const !== undefined) return `${name}=${String(property.const)}`;
  }
  if (required.length === 1) return required[0]!;
  if (isJsonObject(branch) && typeof branch.$ref === 'string') return branch.$ref.split('/').pop()!;
  if (resolved.type === 'null') return 'null';
  return `#${index + 1}`;
}

/** One field of a flattened schema. */
export interface Field {
  /** `''` for the schema itself, then `a.b`, `list[]`. */
  path: string;
  /** The field holding this one; undefined for the schema itself. */
  parent: string | undefined;
  required: boolean;
  schema: SchemaSummary;
  /** Whether the object holding this field refuses unknown properties. */
  parentClosed: boolean;
}

/** Every field of a schema, parents before children. */
export function flattenSchema(summary: SchemaSummary): Map<string, Field> {
  const fields = new Map<string, Field>();
  const visit = (schema: SchemaSummary, path: string, parent: Field | undefined, required: boolean, depth: number): void => {
    const field: Field = { path, parent: parent?.path, required, schema, parentClosed: parent?.schema.closed ?? false };
    fields.set(path, field);
    // Recursive schemas stop at their `$ref`; this bounds any remaining self-similar nesting.
    if (depth > 32) return;
    for (const [name, property] of schema.properties) {
      visit(property.schema, path ? `${path}.${name}` : name, field, property.required, depth + 1);
    }
    if (schema.items) visit(schema.items, `${path}[]`, field, true, depth + 1);
  };
  visit(summary, '', undefined, true, 0);
  return fields;
}

/** `string | null`, `integer`, `any`: the types of a field for a reader. */
export function describeTypes(schema: SchemaSummary): string {
  if (!schema.types) return 'any';
  if (schema.types.size === 0) return 'never';
  return [...schema.types].sort((a, b) => Number(a === 'null') - Number(b === 'null') || a.localeCompare(b)).join(' | ');
}
