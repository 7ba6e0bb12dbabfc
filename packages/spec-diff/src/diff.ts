/**
 * The two reports of the engine: what a change to the document does to each
 * operation (`diffDocuments`), and how one API version differs from another in
 * the same document (`compareVersions`, for the migration guide).
 */
import { compareOperations, type OperationSide } from './compare-operation.js';
import type { Change } from './compare-schema.js';
import type { Operation } from '@swap-gateway/openapi';
import {
  asDocument,
  definitionOf,
  dereference,
  documentOperations,
  isJsonObject,
  pathTemplate,
  SpecDiffError,
  versionOf,
  type DocumentInput,
  type JsonObject,
  type JsonDocument,
} from './document.js';
import { describeTypes, flattenSchema, summarizeSchema } from './schema-shape.js';

export interface OperationRef {
  method: string;
  path: string;
  operationId: string | undefined;
}

export interface OperationDiff extends OperationRef {
  status: 'added' | 'removed' | 'changed';
  /** The API version (first path segment), when the path has one. */
  version: string | undefined;
  /** Whether the version was released in the base document: a breaking change to it needs a declaration. */
  released: boolean;
  changes: Change[];
}

export interface DiffReport {
  /** Only the operations that changed, in the head document's order, then the removed ones. */
  operations: OperationDiff[];
}

const refOf = (operation: Operation): OperationRef => ({
  method: operation.method,
  path: operation.path,
  operationId: operation.operationId,
});

const operationKey = (operation: Operation): string => `${operation.method} ${pathTemplate(operation.path)}`;

/**
 * A version is released unless the base document's tag of that name (`V5` for
 * `/v5/...`) says `x-unreleased: true`, or the base has no operation in it yet.
 */
function releasedVersions(base: JsonDocument, operations: Operation[]): Set<string> {
  const unreleased = new Set(
    (Array.isArray(base.tags) ? base.tags : [])
      .filter((tag): tag is JsonObject => isJsonObject(tag) && tag['x-unreleased'] === true && typeof tag.name === 'string')
      .map((tag) => String(tag.name).toLowerCase()),
  );
  const versions = new Set<string>();
  for (const operation of operations) {
    const version = versionOf(operation.path);
    if (version && !unreleased.has(version)) versions.add(version);
  }
  return versions;
}

/** What changed, operation by operation, from `base` to `head`. */
export function diffDocuments(baseInput: DocumentInput, headInput: DocumentInput): DiffReport {
  const base = asDocument(baseInput);
  const head = asDocument(headInput);
  const baseOperations = documentOperations(base);
  const headOperations = documentOperations(head);
  const released = releasedVersions(base, baseOperations);
  const baseByKey = new Map(baseOperations.map((operation) => [operationKey(operation), operation]));
  const headKeys = new Set(headOperations.map(operationKey));

  const diffs: OperationDiff[] = [];
  const record = (operation: Operation, status: OperationDiff['status'], changes: Change[]): void => {
    if (changes.length === 0) return;
    const version = versionOf(operation.path);
    diffs.push({ ...refOf(operation), status, version, released: version ? released.has(version) : status !== 'added', changes });
  };
  for (const operation of headOperations) {
    const previous = baseByKey.get(operationKey(operation));
    const changes = compareOperations(previous && { document: base, operation: previous }, { document: head, operation });
    record(operation, previous ? 'changed' : 'added', changes);
  }
  for (const operation of baseOperations) {
    if (!headKeys.has(operationKey(operation))) {
      record(operation, 'removed', compareOperations({ document: base, operation }, undefined));
    }
  }
  return { operations: diffs };
}

/** What an operation takes and gives, for an operation that has no counterpart to compare with. */
export interface OperationSurface {
  parameters: Array<{ in: string; name: string; required: boolean; type: string }>;
  requestBody:
    | { required: boolean; schema: string | undefined; fields: Array<{ path: string; required: boolean; type: string; closed: boolean }> }
    | undefined;
  responses: Array<{ status: string; schema: string | undefined; description: string }>;
}

export function describeOperation(input: DocumentInput, operation: Operation): OperationSurface {
  const document = asDocument(input);
  const jsonSchema = (holder: JsonObject | undefined) => {
    const content = holder && isJsonObject(holder.content) ? holder.content : {};
    const media = content['application/json'] ?? Object.values(content)[0];
    return isJsonObject(media) ? media.schema : undefined;
  };
  const definition = definitionOf(operation);
  const requestBody = dereference(document, definition.requestBody);
  const bodySchema = jsonSchema(requestBody);
  const bodySummary = summarizeSchema(document, bodySchema);
  return {
    parameters: operation.parameters.map((parameter) => ({
      in: parameter.in,
      name: parameter.name,
      required: parameter.required,
      type: describeTypes(summarizeSchema(document, definitionOf(parameter).schema)),
    })),
    requestBody: requestBody && {
      required: requestBody.required === true,
      schema: bodySummary.name,
      fields: [...flattenSchema(bodySummary).values()].map((field) => ({
        path: field.path,
        required: field.required,
        type: describeTypes(field.schema),
        closed: field.schema.closed,
      })),
    },
    responses: Object.entries(isJsonObject(definition.responses) ? definition.responses : {}).map(([status, response]) => {
      const resolved = dereference(document, response);
      return {
        status,
        schema: summarizeSchema(document, jsonSchema(resolved)).name,
        description: typeof resolved?.description === 'string' ? resolved.description : '',
      };
    }),
  };
}

export interface VersionPair extends OperationRef {
  /** The same operation in the older version (`/v3/x` for `/v4/x`), when there is one. */
  counterpart: OperationRef | undefined;
  /** From the older version's operation to this one; empty when there is no counterpart. */
  changes: Change[];
  /** What the operation takes and gives, when there is no counterpart. */
  surface: OperationSurface | undefined;
}

export interface VersionReport {
  from: string;
  to: string;
  operations: VersionPair[];
  /** Operations of the older version with no counterpart in the newer one. */
  dropped: OperationRef[];
}

/**
 * Compares two API versions of one document: `/v3/x` with `/v4/x`, same method.
 * Each change is classified for a client moving from `from` to `to`.
 */
export function compareVersions(input: DocumentInput, from: string, to: string): VersionReport {
  const document = asDocument(input);
  const operations = documentOperations(document);
  const inVersion = (version: string) => operations.filter((operation) => versionOf(operation.path) === version.toLowerCase());
  const older = inVersion(from);
  const newer = inVersion(to);
  if (newer.length === 0 || older.length === 0) {
    const missing = newer.length === 0 ? to : from;
    throw new SpecDiffError('INVALID_ARGUMENTS', `the document has no operation under /${missing}/`, { version: missing });
  }
  const counterpartKey = (operation: Operation) => `${operation.method} ${pathTemplate(operation.path).replace(/^\/v\d+/i, '')}`;
  const olderByKey = new Map(older.map((operation) => [counterpartKey(operation), operation]));
  const side = (operation: Operation): OperationSide => ({ document, operation });

  const pairs = newer.map((operation): VersionPair => {
    const counterpart = olderByKey.get(counterpartKey(operation));
    return {
      ...refOf(operation),
      counterpart: counterpart && refOf(counterpart),
      changes: counterpart ? compareOperations(side(counterpart), side(operation)) : [],
      surface: counterpart ? undefined : describeOperation(document, operation),
    };
  });
  const matched = new Set(newer.map(counterpartKey));
  return {
    from: from.toLowerCase(),
    to: to.toLowerCase(),
    operations: pairs,
    dropped: older.filter((operation) => !matched.has(counterpartKey(operation))).map(refOf),
  };
}
