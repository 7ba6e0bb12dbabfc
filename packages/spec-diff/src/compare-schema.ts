/**
 * Compares two schemas field by field and classifies each difference by its
 * direction for clients. The rule of thumb: what a client sends (request) may
 * only accept more, what it receives (response) may only promise more.
 * A narrower request or a wider response is breaking; the opposite is compatible.
 */
import {
  describeTypes,
  flattenSchema,
  LOWER_BOUNDS,
  RULES,
  UPPER_BOUNDS,
  type Field,
  type JsonType,
  type SchemaSummary,
} from './schema-shape.js';

export type Severity = 'breaking' | 'compatible';

/** Which way data flows: sent by the client, or received by it. */
export type Direction = 'request' | 'response';

export interface Change {
  severity: Severity;
  /** A stable name of the rule that found the change (`field-removed`, `enum-value-added`, ...). */
  rule: string;
  /** Where in the operation: `request body field offramp.ownerAddress`, `parameter query slippage`, `response 201`. */
  location: string;
  /** What changed, for a reader. */
  message: string;
}

/** A narrower set of values: breaking for what clients send, compatible for what they receive. */
const narrowed = (direction: Direction): Severity => (direction === 'request' ? 'breaking' : 'compatible');
/** A wider set of values: compatible for what clients send, breaking for what they receive. */
const widened = (direction: Direction): Severity => (direction === 'request' ? 'compatible' : 'breaking');

const fieldLocation = (prefix: string, path: string): string => (path ? `${prefix} field ${path}` : prefix);

/**
 * The differences between two schemas at `prefix` (`request body`, `response 200 body`,
 * `parameter query limit`). A field added or removed is reported once, not with its subfields.
 */
export function compareSchemas(base: SchemaSummary, head: SchemaSummary, direction: Direction, prefix: string): Change[] {
  const before = flattenSchema(base);
  const after = flattenSchema(head);
  const changes: Change[] = [];
  const add = (severity: Severity, rule: string, path: string, message: string): void => {
    changes.push({ severity, rule, location: fieldLocation(prefix, path), message });
  };

  for (const [path, was] of before) {
    // A field is gone only where its parent is still there.
    if (after.has(path) || was.parent === undefined || !after.has(was.parent)) continue;
    if (direction === 'response') {
      add('breaking', 'field-removed', path, 'removed');
    } else {
      if (after.get(was.parent)!.schema.closed)
        add('breaking', 'field-removed', path, 'removed, and its object now refuses unknown fields');
      else add('compatible', 'field-removed', path, 'removed from the schema; a client that still sends it is not refused');
    }
  }

  for (const [path, now] of after) {
    const was = before.get(path);
    if (!was) {
      // A field is new only where its parent was already there.
      if (now.parent === undefined || !before.has(now.parent)) continue;
      const what = `${now.required ? 'required' : 'optional'}, ${describeTypes(now.schema)}`;
      if (direction === 'request' && now.required) add('breaking', 'field-added', path, `added (${what}): clients must now send it`);
      else add('compatible', 'field-added', path, `added (${what})`);
      continue;
    }
    compareField(was, now, direction, (severity, rule, message) => add(severity, rule, path, message));
  }
  return changes;
}

type Report = (severity: Severity, rule: string, message: string) => void;

function compareField(was: Field, now: Field, direction: Direction, report: Report): void {
  // The schema itself is always "required": its presence is a matter of the parameter or body.
  if (was.parent !== undefined && was.required !== now.required) {
    if (now.required) report(narrowed(direction), 'field-required', 'now required');
    else report(widened(direction), 'field-optional', 'no longer required');
  }
  compareValues(was.schema, now.schema, direction, report);
}

/** Differences of the values a schema allows, without its subfields. */
export function compareValues(was: SchemaSummary, now: SchemaSummary, direction: Direction, report: Report): void {
  const nullableBefore = isNullable(was);
  const nullableAfter = isNullable(now);
  if (!nullableBefore && nullableAfter) report(widened(direction), 'field-nullable', 'now nullable');
  if (nullableBefore && !nullableAfter) report(narrowed(direction), 'field-not-nullable', 'no longer nullable');

  const typesBefore = withoutNull(was.types);
  const typesAfter = withoutNull(now.types);
  const typeChange = `type ${describeTypes({ ...was, types: typesBefore })} → ${describeTypes({ ...now, types: typesAfter })}`;
  const widerNow = isSubset(typesBefore, typesAfter);
  const narrowerNow = isSubset(typesAfter, typesBefore);
  if (widerNow && !narrowerNow) report(widened(direction), 'type-widened', `${typeChange} (widened)`);
  else if (narrowerNow && !widerNow) report(narrowed(direction), 'type-narrowed', `${typeChange} (narrowed)`);
  else if (!widerNow && !narrowerNow) report('breaking', 'type-changed', typeChange);

  const valuesBefore = withoutNullValue(was.values);
  const valuesAfter = withoutNullValue(now.values);
  if (valuesBefore && !valuesAfter) report(widened(direction), 'enum-unrestricted', 'no longer restricted to a list of values');
  if (!valuesBefore && valuesAfter) report(narrowed(direction), 'enum-restricted', `now restricted to ${formatValues(valuesAfter)}`);
  if (valuesBefore && valuesAfter) {
    for (const value of valuesAfter) {
      if (!valuesBefore.has(value)) report(widened(direction), 'enum-value-added', `enum value ${formatValue(value)} added`);
    }
    for (const value of valuesBefore) {
      if (!valuesAfter.has(value)) report(narrowed(direction), 'enum-value-removed', `enum value ${formatValue(value)} removed`);
    }
  }

  if (was.variants && now.variants) {
    for (const label of now.variants) {
      if (!was.variants.includes(label)) report(widened(direction), 'variant-added', `variant \`${label}\` added`);
    }
    for (const label of was.variants) {
      if (!now.variants.includes(label)) report(narrowed(direction), 'variant-removed', `variant \`${label}\` removed`);
    }
  }

  compareConstraints(was, now, direction, report);

  const isObjectBoth = (was.types?.has('object') ?? true) && (now.types?.has('object') ?? true);
  if (isObjectBoth && !was.closed && now.closed) {
    report(narrowed(direction), 'object-closed', 'now refuses unknown fields (additionalProperties: false)');
  }
  // Clients ignore fields they do not know, so a response that may carry more is still compatible.
  if (isObjectBoth && was.closed && !now.closed) report('compatible', 'object-opened', 'now allows unknown fields');
}

function compareConstraints(was: SchemaSummary, now: SchemaSummary, direction: Direction, report: Report): void {
  const bounds: Array<[readonly string[], 1 | -1]> = [
    [LOWER_BOUNDS, 1],
    [UPPER_BOUNDS, -1],
  ];
  for (const [keys, sign] of bounds) {
    for (const key of keys) {
      const before = was.constraints.get(key as never);
      const after = now.constraints.get(key as never);
      if (before === after) continue;
      const text = `${key} ${before ?? 'none'} → ${after ?? 'none'}`;
      if (typeof before !== 'number') report(narrowed(direction), 'constraint-narrowed', text);
      else if (typeof after !== 'number') report(widened(direction), 'constraint-widened', text);
      else if ((after - before) * sign > 0) report(narrowed(direction), 'constraint-narrowed', text);
      else report(widened(direction), 'constraint-widened', text);
    }
  }
  for (const key of RULES) {
    const before = was.constraints.get(key);
    const after = now.constraints.get(key);
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    const text = `${key} ${before === undefined ? 'none' : JSON.stringify(before)} → ${after === undefined ? 'none' : JSON.stringify(after)}`;
    if (before === undefined) report(narrowed(direction), 'constraint-narrowed', text);
    else if (after === undefined) report(widened(direction), 'constraint-widened', text);
    else report('breaking', 'constraint-changed', text);
  }
}

/** Unconstrained types allow null; so does an enum that lists it. */
function isNullable(schema: SchemaSummary): boolean {
  if (schema.types) return schema.types.has('null');
  return schema.values ? schema.values.has('null') : true;
}

const withoutNull = (types: Set<JsonType> | undefined): Set<JsonType> | undefined =>
  types && new Set([...types].filter((type) => type !== 'null'));

const withoutNullValue = (values: Set<string> | undefined): Set<string> | undefined =>
  values && new Set([...values].filter((value) => value !== 'null'));

/** Whether every value of `inner` is allowed by `outer` (undefined is every type; integer is a number). */
function isSubset(inner: Set<JsonType> | undefined, outer: Set<JsonType> | undefined): boolean {
  if (!outer) return true;
  if (!inner) return false;
  return [...inner].every((type) => outer.has(type) || (type === 'integer' && outer.has('number')));
}

const formatValue = (encoded: string): string => `\`${encoded.startsWith('"') ? JSON.parse(encoded) : encoded}\``;
const formatValues = (values: Set<string>): string => [...values].map(formatValue).join(', ');
