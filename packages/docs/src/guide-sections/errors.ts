/**
 * The errors reference, read from the combined bundle: every code of the
 * error-code schemas with its meaning (`x-enumDescriptions`) and the version
 * that introduced it (`x-introduced-in`), the HTTP statuses and detail shapes
 * the document's examples give it, the detail shape the document ties to a code
 * (`x-detail-shapes-by-code`), and the error bodies themselves. Written for
 * integrators: which of these the document inferred is the open-questions page's
 * (for reviewers), so the tables mark nothing as inferred; a code without an
 * example says so.
 */
import {
  createSchemaValidator,
  detailShapesByCode,
  documentedErrorBodies,
  documentedErrorCodes,
  resolveRef,
  type OpenApiDocument,
} from '@swap-gateway/openapi';
import { publishedOperations, type PublishedOperation } from '../document.js';
import { code, escapeCell, table } from '../markdown-text.js';

export interface ErrorCodeEntry {
  code: string;
  meaning: string;
  introducedIn: string;
  /** The API versions whose error-code schema lists the code. */
  versions: string[];
  /** Where the document's examples return the code. */
  returnedBy: Array<{ operation: PublishedOperation; status: string }>;
  /** Titles of the detail shapes the code's examples carry. */
  detailShapes: string[];
}

export interface DetailShape {
  title: string;
  description: string;
  fields: Array<{ name: string; type: string; required: boolean; description: string }>;
}

/** The codes of an error-code schema, each with the meaning and version the docs print. */
function codesOf(document: OpenApiDocument, schemaName: string): Array<{ code: string; meaning: string; introducedIn: string }> {
  const found = documentedErrorCodes(document, schemaName).map(({ code, meaning, introducedIn }) => {
    if (!meaning || !introducedIn)
      throw new Error(`${schemaName}: code ${code} lacks its ${meaning ? 'x-introduced-in' : 'x-enumDescriptions'} entry`);
    return { code, meaning, introducedIn };
  });
  if (found.length === 0) throw new Error(`${schemaName} lists no error codes`);
  return found;
}

/** The alternatives of `GatewayErrorDetails`, in document order. */
export function detailShapes(document: OpenApiDocument): DetailShape[] {
  const details = resolveRef<{ oneOf: unknown[] }>(document, document.components.schemas?.GatewayErrorDetails);
  return details.oneOf.map((branch) => {
    const shape = resolveRef<{
      title?: string;
      description?: string;
      type?: string | string[];
      required?: string[];
      properties?: Record<string, { type?: unknown; items?: { type?: unknown }; description?: string }>;
    }>(document, branch);
    if (!shape.title) throw new Error('every alternative of GatewayErrorDetails needs a title to be named in the docs');
    const fields = Object.entries(shape.properties ?? {}).map(([name, property]) => ({
      name,
      type: describeType(property),
      required: shape.required?.includes(name) ?? false,
      description: property.description ?? '',
    }));
    return { title: shape.title, description: shape.description ?? '', fields };
  });
}

function describeType(schema: { type?: unknown; items?: { type?: unknown } }): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.map((type) => (type === 'array' ? `array of ${String(schema.items?.type)}` : String(type))).join(' or ');
}

export function listErrorCodes(document: OpenApiDocument): ErrorCodeEntry[] {
  const v4 = codesOf(document, 'GatewayErrorCodeV4');
  const v3 = new Set(codesOf(document, 'GatewayErrorCodeV3').map((entry) => entry.code));
  const shapes = detailShapes(document);
  const validator = createSchemaValidator(document);
  const shapeOf = (details: unknown) =>
    shapes
      .filter((_, index) => validator.validate(`#/components/schemas/GatewayErrorDetails/oneOf/${index}`, details).valid)
      .map((shape) => shape.title);

  const byCode = new Map<string, ErrorCodeEntry>(
    v4.map((entry) => [entry.code, { ...entry, versions: v3.has(entry.code) ? ['V3', 'V4'] : ['V4'], returnedBy: [], detailShapes: [] }]),
  );
  const responses = publishedOperations(document).flatMap((operation) =>
    Object.values(operation.responses).map((response) => ({ operation, status: response.status })),
  );
  for (const { operation, status } of responses) {
    for (const value of documentedErrorBodies(operation, status)) {
      const entry = byCode.get(value.code);
      if (!entry)
        throw new Error(`an example of ${operation.operationId} ${status} carries ${value.code}, which no error-code schema lists`);
      if (!entry.returnedBy.some((seen) => seen.operation.operationId === operation.operationId && seen.status === status)) {
        entry.returnedBy.push({ operation, status });
      }
      if ('details' in value) {
        for (const title of shapeOf(value.details)) if (!entry.detailShapes.includes(title)) entry.detailShapes.push(title);
      }
    }
  }
  return [...byCode.values()];
}

/** The operation's name as a reader knows it: the path without version and parameters (`get-quote`). */
const operationName = (operation: PublishedOperation) => operation.path.split('/')[2] ?? operation.path;

/** What a cell says of a code the document's examples never return. */
export const noExample = '_no example_';

/**
 * `**400** get-quote, create-order` lines, one per status. A status every operation documents (401,
 * 429, 500) reads "every operation".
 */
function statusCell(entry: ErrorCodeEntry, everyOperation: Set<string>): string {
  if (entry.returnedBy.length === 0) return noExample;
  const byStatus = new Map<string, Set<string>>();
  for (const { operation, status } of entry.returnedBy)
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(operationName(operation)));
  return [...byStatus.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, names]) => {
      const operations = names.size === everyOperation.size ? 'every operation' : [...names].join(', ');
      return `**${status}** <span class="muted">${operations}</span>`;
    })
    .join('<br>');
}

function shapeCell(entry: ErrorCodeEntry, shapes: DetailShape[]): string {
  if (entry.detailShapes.length === 0) return noExample;
  return entry.detailShapes
    .map((title) => {
      const fields = shapes.find((candidate) => candidate.title === title)?.fields ?? [];
      return fields.length === 0 ? code('null') : fields.map((field) => code(field.name)).join(' ');
    })
    .join(' or ');
}

/** The Markdown of the errors table (one row per code) and the detail shapes it names. */
export function errorsTableMarkdown(document: OpenApiDocument): string {
  const codes = listErrorCodes(document);
  const shapes = detailShapes(document);
  const everyOperation = new Set(publishedOperations(document).map(operationName));
  const rows = codes.map((entry) => [
    `<span id="${entry.code}"></span>${code(entry.code)}`,
    escapeCell(entry.meaning),
    `${entry.introducedIn}${entry.versions.includes('V3') ? '' : ` <span class="muted">(${entry.versions.join(', ')} only)</span>`}`,
    statusCell(entry, everyOperation),
    shapeCell(entry, shapes),
  ]);
  return table(['Code', 'Meaning', 'Introduced', 'HTTP status · operations', 'Details in the examples'], rows);
}

/** The detail shapes, as a table of their fields. */
export function detailShapesMarkdown(document: OpenApiDocument): string {
  const rows = detailShapes(document).map((shape) => [
    code(shape.title),
    shape.fields.length === 0
      ? code('null')
      : shape.fields.map((field) => `${code(field.name)} ${field.type}${field.required ? '' : ' (optional)'}`).join('<br>'),
    escapeCell(shape.description),
  ]);
  return table(['Shape', 'Fields', 'Meaning'], rows);
}

/**
 * One row per code the document ties to a detail shape (`x-detail-shapes-by-code` of
 * GatewayErrorDetails, inferred from the public gateway's SDK), in the document's order: the code,
 * the shape's fields, and what each field is as the document describes it. A sentence of a field's
 * description that begins `For <CODE>,` is said in that code's row only.
 */
export function detailsByCodeMarkdown(document: OpenApiDocument): string {
  const codes = new Set(documentedErrorCodes(document, 'GatewayErrorCodeV4').map((entry) => entry.code));
  const shapes = detailShapes(document);
  const rows = [...detailShapesByCode(document).values()].map(({ code: tied, title }) => {
    if (!codes.has(tied)) throw new Error(`GatewayErrorDetails ties ${tied} to a shape, but no error-code schema lists it`);
    const shape = shapes.find((candidate) => candidate.title === title)!;
    const meaning = shape.fields.map((field) => {
      const sentences = field.description.split(/(?<=\.)\s+/).filter((sentence) => {
        const other = /^For ([A-Z_]+),/.exec(sentence)?.[1];
        return other === undefined || !codes.has(other) || other === tied;
      });
      return `${code(field.name)}${field.required ? '' : ' (optional)'}: ${sentences.join(' ')}`;
    });
    return [
      `${code(tied)}`,
      `${shape.fields.map((field) => code(field.name)).join(' ')} <span class="muted">${escapeCell(title)}</span>`,
      meaning.map(escapeCell).join('<br>'),
    ];
  });
  return table(['Code', '`details`', 'Fields'], rows);
}

/** The `x-unspecified` / `x-inferred` sentence of a schema: a guide asking for a note the schema lacks fails the build. */
export function schemaMarker(document: OpenApiDocument, schemaName: string, marker: 'x-unspecified' | 'x-inferred'): string {
  const schema = resolveRef<Record<string, unknown>>(document, document.components.schemas?.[schemaName]);
  const text = schema[marker];
  if (typeof text !== 'string') throw new Error(`${schemaName} has no ${marker}`);
  return text.replace(/\s+/g, ' ').trim();
}
