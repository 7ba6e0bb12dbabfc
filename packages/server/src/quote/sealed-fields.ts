/**
 * What a quote's seal covers: every member the document gives the quote of a route (its V3 and V4
 * schemas together, nested objects and array items included), in one fixed order. The seal encodes
 * the quote's values along this list (quote/seal.ts), so that sealing walks a list made once at
 * start-up instead of sorting the keys of every object of every quote.
 *
 * A member a client adds that the document does not name is outside the seal, and create-order
 * reads none (it reads only the document's members); that every member the quote engine issues is
 * on the list is checked by the tests (test/seal.test.ts).
 */
import { type OpenApiDocument, resolveRef } from '@swap-gateway/openapi';
import type { RouteKind } from '../config/config.js';

export interface SealedField {
  name: string;
  /** Members of an object value. */
  members?: SealedField[];
  /** Members of each item of an array value. */
  items?: SealedField[];
}

export type SealedFields = Record<RouteKind, SealedField[]>;

type Schema = Record<string, unknown>;
/** Property names, each with every schema given for it. */
type Properties = Record<string, unknown[]>;

/** The quote members of each route, from the document's GatewayQuoteV3 and GatewayQuoteV4. */
export function sealedFields(document: OpenApiDocument): SealedFields {
  const fields: Record<string, SealedField[]> = {};
  for (const name of ['GatewayQuoteV3', 'GatewayQuoteV4']) {
    // Each quote is one of the routes' wrappers: `{ onramp: {...} }`, `{ offramp: {...} }`, ...
    for (const [route, wrapper] of Object.entries(properties(document, { $ref: `#/components/schemas/${name}` }))) {
      // The seal is not part of what it seals.
      fields[route] = merge(fields[route] ?? [], members(document, wrapper)).filter((field) => field.name !== 'signedQuoteData');
    }
  }
  for (const route of ['onramp', 'offramp', 'tokenSwap'] as const) {
    if (!fields[route]?.length) throw new Error(`the document gives no members to the ${route} quote`);
  }
  return fields as SealedFields;
}

/** The properties an object schema (through $ref, allOf, oneOf and anyOf) can have. */
function properties(document: OpenApiDocument, schema: unknown, found: Properties = {}, depth = 0): Properties {
  if (depth > 32) throw new Error('the quote schemas nest deeper than 32 levels');
  const node = resolve(document, schema);
  if (!node) return found;
  for (const [name, property] of Object.entries((node.properties ?? {}) as Schema)) {
    found[name] ??= [];
    found[name].push(property);
  }
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    for (const branch of (node[keyword] ?? []) as unknown[]) properties(document, branch, found, depth + 1);
  }
  return found;
}

/** The sealed members of a value that may be any of these schemas, sorted by name. */
function members(document: OpenApiDocument, schemas: unknown[], depth = 0): SealedField[] {
  const found: Properties = {};
  for (const schema of schemas) properties(document, schema, found, depth);
  return Object.keys(found)
    .sort()
    .map((name) => {
      const schemasOfMember = found[name]!;
      const field: SealedField = { name };
      const objectMembers = members(document, schemasOfMember, depth + 1);
      if (objectMembers.length) field.members = objectMembers;
      const itemSchemas = schemasOfMember
        .flatMap((schema) => alternatives(document, schema))
        .flatMap((node) => (node.items ? [node.items] : []));
      const itemMembers = members(document, itemSchemas, depth + 1);
      if (itemMembers.length) field.items = itemMembers;
      return field;
    });
}

/** A schema and the branches of its oneOf/anyOf/allOf, resolved. */
function alternatives(document: OpenApiDocument, schema: unknown): Schema[] {
  const node = resolve(document, schema);
  if (!node) return [];
  return [
    node,
    ...['allOf', 'oneOf', 'anyOf'].flatMap((keyword) =>
      ((node[keyword] ?? []) as unknown[]).flatMap((branch) => alternatives(document, branch)),
    ),
  ];
}

/** The schema a node stands for, through its $refs (@swap-gateway/openapi's one follower). */
function resolve(document: OpenApiDocument, schema: unknown): Schema | undefined {
  const node = resolveRef<unknown>(document, schema);
  return node && typeof node === 'object' ? (node as Schema) : undefined;
}

/** The members of two lists of one value (V3's and V4's), each member once, sorted by name. */
function merge(left: SealedField[], right: SealedField[]): SealedField[] {
  const byName = new Map(left.map((field) => [field.name, field]));
  for (const field of right) {
    const known = byName.get(field.name) ?? { name: field.name };
    const merged: SealedField = { name: field.name };
    if (known.members || field.members) merged.members = merge(known.members ?? [], field.members ?? []);
    if (known.items || field.items) merged.items = merge(known.items ?? [], field.items ?? []);
    byName.set(field.name, merged);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
