/**
 * Compares two operations: their parameters, request body, responses (status
 * codes, bodies, headers) and security. Either side may be missing: then the
 * whole operation is added or removed.
 */
import { compareSchemas, compareValues, type Change, type Direction } from './compare-schema.js';
import type { Operation } from '@swap-gateway/openapi';
import { definitionOf, dereference, isJsonObject, type Json, type JsonObject, type JsonDocument } from './document.js';
import { summarizeSchema } from './schema-shape.js';

/** One side of a comparison: an operation and the document its `$ref`s point into. */
export interface OperationSide {
  document: JsonDocument;
  operation: Operation;
}

export function compareOperations(base: OperationSide | undefined, head: OperationSide | undefined): Change[] {
  if (!base && !head) return [];
  if (!base) return [{ severity: 'compatible', rule: 'operation-added', location: 'operation', message: 'added' }];
  if (!head) return [{ severity: 'breaking', rule: 'operation-removed', location: 'operation', message: 'removed' }];
  return [
    ...compareDeprecation(base.operation, head.operation),
    ...compareSecurity(base, head),
    ...compareParameters(base, head),
    ...compareRequestBodies(base, head),
    ...compareResponses(base, head),
  ];
}

function compareDeprecation(base: Operation, head: Operation): Change[] {
  const before = base.definition.deprecated === true;
  const after = head.definition.deprecated === true;
  if (before === after) return [];
  return [
    {
      severity: 'compatible',
      rule: after ? 'operation-deprecated' : 'operation-undeprecated',
      location: 'operation',
      message: after ? 'deprecated' : 'no longer deprecated',
    },
  ];
}

/** Each alternative of `security` as `apiKey`, `a+b`, or `anonymous` for `{}` (and for no security at all). */
function securityAlternatives(side: OperationSide): Set<string> {
  const requirements = definitionOf(side.operation).security ?? side.document.security;
  if (!Array.isArray(requirements) || requirements.length === 0) return new Set(['anonymous']);
  return new Set(
    requirements.map((requirement) => {
      const schemes = isJsonObject(requirement) ? Object.keys(requirement).sort() : [];
      return schemes.length === 0 ? 'anonymous' : schemes.join('+');
    }),
  );
}

function compareSecurity(base: OperationSide, head: OperationSide): Change[] {
  const before = securityAlternatives(base);
  const after = securityAlternatives(head);
  const changes: Change[] = [];
  for (const alternative of before) {
    if (!after.has(alternative)) {
      const message =
        alternative === 'anonymous'
          ? 'a call without credentials is no longer accepted'
          : `the \`${alternative}\` alternative is no longer accepted`;
      changes.push({ severity: 'breaking', rule: 'security-removed', location: 'security', message });
    }
  }
  for (const alternative of after) {
    if (!before.has(alternative)) {
      const message =
        alternative === 'anonymous' ? 'a call without credentials is now accepted' : `the \`${alternative}\` alternative is now accepted`;
      changes.push({ severity: 'compatible', rule: 'security-added', location: 'security', message });
    }
  }
  return changes;
}

/** The schema of a parameter or header: `schema`, or the one of its single `content` entry. */
function valueSchema(definition: JsonObject): Json | undefined {
  if (definition.schema !== undefined) return definition.schema;
  const content = isJsonObject(definition.content) ? Object.values(definition.content)[0] : undefined;
  return isJsonObject(content) ? content.schema : undefined;
}

/**
 * Parameters are matched by `in` and name, path parameters by position: renaming
 * `{id}` to `{orderId}` changes nothing a client sends.
 */
function parametersByKey(operation: Operation): Map<string, JsonObject> {
  const positions = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const byKey = new Map<string, JsonObject>();
  for (const parameter of operation.parameters) {
    const { in: where, name } = parameter;
    const key = where === 'path' ? `path:#${positions.indexOf(name)}` : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
    byKey.set(key, definitionOf(parameter));
  }
  return byKey;
}

const parameterLocation = (parameter: JsonObject): string => `parameter ${String(parameter.in)} ${String(parameter.name)}`;

function compareParameters(base: OperationSide, head: OperationSide): Change[] {
  const before = parametersByKey(base.operation);
  const after = parametersByKey(head.operation);
  const changes: Change[] = [];
  for (const [key, parameter] of before) {
    if (!after.has(key)) {
      changes.push({
        severity: 'breaking',
        rule: 'parameter-removed',
        location: parameterLocation(parameter),
        message: 'removed: a client that sends it is no longer understood',
      });
    }
  }
  for (const [key, parameter] of after) {
    const location = parameterLocation(parameter);
    const was = before.get(key);
    const requiredNow = parameter.required === true;
    if (!was) {
      changes.push(
        requiredNow
          ? { severity: 'breaking', rule: 'parameter-added', location, message: 'added, required: clients must now send it' }
          : { severity: 'compatible', rule: 'parameter-added', location, message: 'added, optional' },
      );
      continue;
    }
    const requiredBefore = was.required === true;
    if (!requiredBefore && requiredNow)
      changes.push({ severity: 'breaking', rule: 'parameter-required', location, message: 'now required' });
    if (requiredBefore && !requiredNow)
      changes.push({ severity: 'compatible', rule: 'parameter-optional', location, message: 'no longer required' });
    changes.push(
      ...compareSchemas(
        summarizeSchema(base.document, valueSchema(was)),
        summarizeSchema(head.document, valueSchema(parameter)),
        'request',
        location,
      ),
    );
  }
  return changes;
}

/** `application/json` is the default and goes unnamed; other media types are named. */
const mediaLocation = (prefix: string, mediaType: string): string =>
  mediaType === 'application/json' ? `${prefix} body` : `${prefix} body (${mediaType})`;

function compareContent(
  base: OperationSide,
  head: OperationSide,
  before: JsonObject,
  after: JsonObject,
  direction: Direction,
  prefix: string,
): Change[] {
  const changes: Change[] = [];
  for (const mediaType of Object.keys(before)) {
    if (!(mediaType in after)) {
      changes.push({
        severity: 'breaking',
        rule: 'media-type-removed',
        location: mediaLocation(prefix, mediaType),
        message: `media type ${mediaType} removed`,
      });
    }
  }
  for (const [mediaType, media] of Object.entries(after)) {
    const location = mediaLocation(prefix, mediaType);
    const was = before[mediaType];
    if (was === undefined) {
      changes.push({ severity: 'compatible', rule: 'media-type-added', location, message: `media type ${mediaType} added` });
      continue;
    }
    const schemaBefore = summarizeSchema(base.document, isJsonObject(was) ? was.schema : undefined);
    const schemaAfter = summarizeSchema(head.document, isJsonObject(media) ? media.schema : undefined);
    changes.push(...compareSchemas(schemaBefore, schemaAfter, direction, location));
  }
  return changes;
}

function compareRequestBodies(base: OperationSide, head: OperationSide): Change[] {
  const before = dereference(base.document, definitionOf(base.operation).requestBody);
  const after = dereference(head.document, definitionOf(head.operation).requestBody);
  if (!before && !after) return [];
  if (!after)
    return [
      {
        severity: 'breaking',
        rule: 'request-body-removed',
        location: 'request body',
        message: 'removed: a client that sends one is no longer understood',
      },
    ];
  if (!before) {
    return [
      after.required === true
        ? {
            severity: 'breaking',
            rule: 'request-body-added',
            location: 'request body',
            message: 'added, required: clients must now send one',
          }
        : { severity: 'compatible', rule: 'request-body-added', location: 'request body', message: 'added, optional' },
    ];
  }
  const changes: Change[] = [];
  if (before.required !== true && after.required === true) {
    changes.push({ severity: 'breaking', rule: 'request-body-required', location: 'request body', message: 'now required' });
  }
  if (before.required === true && after.required !== true) {
    changes.push({ severity: 'compatible', rule: 'request-body-optional', location: 'request body', message: 'no longer required' });
  }
  const contentBefore = isJsonObject(before.content) ? before.content : {};
  const contentAfter = isJsonObject(after.content) ? after.content : {};
  return [...changes, ...compareContent(base, head, contentBefore, contentAfter, 'request', 'request')];
}

function compareResponses(base: OperationSide, head: OperationSide): Change[] {
  const responsesOf = (side: OperationSide) => {
    const { responses } = definitionOf(side.operation);
    return isJsonObject(responses) ? responses : {};
  };
  const before = responsesOf(base);
  const after = responsesOf(head);
  const changes: Change[] = [];
  for (const status of Object.keys(before)) {
    if (!(status in after)) {
      changes.push({ severity: 'breaking', rule: 'status-removed', location: `response ${status}`, message: `status ${status} removed` });
    }
  }
  for (const status of Object.keys(after)) {
    const prefix = `response ${status}`;
    if (!(status in before)) {
      changes.push({ severity: 'compatible', rule: 'status-added', location: prefix, message: `status ${status} added` });
      continue;
    }
    const was = dereference(base.document, before[status]) ?? {};
    const now = dereference(head.document, after[status]) ?? {};
    changes.push(...compareHeaders(base, head, was, now, prefix));
    const contentBefore = isJsonObject(was.content) ? was.content : {};
    const contentAfter = isJsonObject(now.content) ? now.content : {};
    changes.push(...compareContent(base, head, contentBefore, contentAfter, 'response', prefix));
  }
  return changes;
}

function compareHeaders(base: OperationSide, head: OperationSide, was: JsonObject, now: JsonObject, prefix: string): Change[] {
  const byName = (side: OperationSide, response: JsonObject): Map<string, { name: string; header: JsonObject }> =>
    new Map(
      Object.entries(isJsonObject(response.headers) ? response.headers : {}).map(([name, header]) => [
        name.toLowerCase(),
        { name, header: dereference(side.document, header) ?? {} },
      ]),
    );
  const before = byName(base, was);
  const after = byName(head, now);
  const changes: Change[] = [];
  for (const [key, { name }] of before) {
    if (!after.has(key))
      changes.push({ severity: 'breaking', rule: 'header-removed', location: `${prefix} header ${name}`, message: 'removed' });
  }
  for (const [key, { name, header }] of after) {
    const location = `${prefix} header ${name}`;
    const previous = before.get(key);
    if (!previous) {
      changes.push({ severity: 'compatible', rule: 'header-added', location, message: 'added' });
      continue;
    }
    if (previous.header.required === true && header.required !== true) {
      changes.push({ severity: 'breaking', rule: 'header-optional', location, message: 'no longer always sent' });
    }
    if (previous.header.required !== true && header.required === true) {
      changes.push({ severity: 'compatible', rule: 'header-required', location, message: 'now always sent' });
    }
    compareValues(
      summarizeSchema(base.document, valueSchema(previous.header)),
      summarizeSchema(head.document, valueSchema(header)),
      'response',
      (severity, rule, message) => changes.push({ severity, rule, location, message }),
    );
  }
  return changes;
}
