/**
 * The one check every response of the suite goes through, whatever the test:
 *
 * - the status is documented for the operation (exact, range or default) and is not a 5xx the
 *   request did not ask for;
 * - the content type is one the document gives for that status;
 * - the body validates against that status's schema (Ajv, JSON Schema 2020-12, via createSchemaValidator);
 * - the response's required headers are present and valid;
 * - for a target that promises full error bodies, every 4xx/5xx JSON body carries `code`, `error`
 *   and `details`, beyond what the document requires;
 * - on every target, a 4xx/5xx JSON body's `details` (when it has them) are the shape the document
 *   ties to its code (`x-detail-shapes-by-code` of GatewayErrorDetails, the public gateway's SDK's;
 *   @swap-gateway/openapi's `detailsShapeProblem`): `{ expected, actual }` for INSUFFICIENT_AMOUNT,
 *   not merely any shape of the set, which is all the schema asks.
 *
 * A request outside the document (unknown path or method) must be answered 404 or 405 with the
 * structured error body.
 */
import { coerceParameter, detailShapesByCode, detailsShapeProblem, documentedResponse, type Operation } from '@swap-gateway/openapi';
import { document, validator } from './document.js';

export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface CheckOptions {
  /** The request asked for a 5xx on purpose (the mock's `Prefer: code=500`). */
  serverErrorRequested?: boolean | undefined;
  /** The target promises `code`, `error` and `details` in every error body (capability `sends full error bodies`). */
  fullErrorBodies?: boolean | undefined;
  /** The request was HEAD: held to its GET's statuses and headers, and to an empty body. */
  head?: boolean | undefined;
}

const errorBodyPointer = validator.schemaPointer('GatewayErrorV4');
const detailShapes = detailShapesByCode(document);

/** Every way the response breaks the contract; empty when it keeps it. */
export function contractProblems(op: Operation | undefined, response: ObservedResponse, options: CheckOptions = {}): string[] {
  const problems: string[] = [];
  if (response.status >= 500 && !options.serverErrorRequested)
    problems.push(`answered ${response.status}: the suite never sends a request that may cause a 5xx`);

  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (options.head) return [...problems, ...headProblems(op, response)];
  const body = parseBody(response.text, mediaType, problems);
  if (response.status >= 400 && mediaType === 'application/json') {
    if (options.fullErrorBodies) problems.push(...fullErrorBodyProblems(body));
    const shape = detailsShapeProblem(detailShapes, validator, body);
    if (shape) problems.push(shape);
  }

  if (!op) {
    if (response.status !== 404 && response.status !== 405)
      problems.push(`a request outside the document was answered ${response.status}, not 404 or 405`);
    if (mediaType !== 'application/json')
      problems.push(`a request outside the document was answered with content type ${mediaType ?? '(none)'}, not application/json`);
    else problems.push(...schemaProblems(errorBodyPointer, body, 'the error body'));
    return problems;
  }

  const documented = documentedResponse(op, response.status);
  if (!documented) {
    problems.push(
      `status ${response.status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')})`,
    );
    return problems;
  }
  const mediaTypes = Object.keys(documented.content);
  const schemaPointer = mediaType ? documented.content[mediaType]?.schemaPointer : undefined;
  if (mediaTypes.length === 0) {
    if (response.text.length > 0) problems.push(`${op.operationId} ${documented.status} documents no body, yet one was sent`);
  } else if (!mediaType || !mediaTypes.includes(mediaType)) {
    problems.push(
      `content type ${mediaType ?? '(none)'} is not documented for ${op.operationId} ${documented.status} (documented: ${mediaTypes.join(', ')})`,
    );
  } else if (schemaPointer) {
    problems.push(...schemaProblems(schemaPointer, body, `the ${documented.status} body`));
  }
  for (const header of documented.headers.filter(({ required }) => required)) {
    const value = response.headers.get(header.name);
    if (value === null) {
      problems.push(`required header ${header.name} is missing from ${op.operationId} ${documented.status}`);
      continue;
    }
    // A header is text like a query parameter: the document's one rule reads a number in it.
    if (header.schemaPointer)
      problems.push(...schemaProblems(header.schemaPointer, coerceParameter(header.schema, value), `header ${header.name}`));
  }
  return problems;
}

/** A HEAD answer: a status its GET documents (404/405 outside the document), and no body. */
function headProblems(op: Operation | undefined, response: ObservedResponse): string[] {
  const problems: string[] = [];
  if (response.text.length > 0) problems.push('a HEAD answer carries a body');
  if (!op) {
    if (response.status !== 404 && response.status !== 405)
      problems.push(`a HEAD request outside the document was answered ${response.status}, not 404 or 405`);
  } else if (!documentedResponse(op, response.status)) {
    problems.push(`status ${response.status} is not documented for ${op.operationId}, whose GET a HEAD stands for`);
  }
  return problems;
}

/** What an error body lacks of `{ code: string, error: string, details: object | null }`. */
function fullErrorBodyProblems(body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['the error body is not an object'];
  const { code, error, details } = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof code !== 'string') problems.push('the error body has no string `code`');
  if (typeof error !== 'string') problems.push('the error body has no string `error`');
  if (details === undefined) problems.push('the error body has no `details` (null when there is nothing to add)');
  else if (typeof details !== 'object') problems.push("the error body's `details` is neither an object nor null");
  return problems;
}

function parseBody(text: string, mediaType: string | undefined, problems: string[]): unknown {
  if (!mediaType || !/json$/.test(mediaType) || text.length === 0) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    problems.push(`the body is labelled ${mediaType} but is not JSON: ${(error as Error).message}`);
    return text;
  }
}

function schemaProblems(pointer: string, body: unknown, what: string): string[] {
  const { valid, errors } = validator.validate(pointer, body);
  return valid ? [] : [`${what} does not validate against ${pointer}:\n${validator.describe(errors)}`];
}
