/**
 * Fastify's validator and serializer compilers, backed by the document's own schemas through
 * @swap-gateway/openapi's Ajv 2020-12 validator. Route schemas are markers naming document
 * pointers; there is no second copy of any schema here.
 *
 * Requests: every parameter is checked against its schema (its text read by @swap-gateway/openapi's
 * `coerceParameter`, the one rule for a number in a URL), the JSON body against the request body
 * schema; a value holding a NUL character (the package's `containsNul`) cannot be read. A failure is
 * INVALID_REQUEST with the status src/http/failures.ts gives it on the operation: its documented
 * 400, or get-order's 404 ORDER_NOT_FOUND (an id that cannot be read is an id no order has).
 * Responses: JSON bodies are checked against the schema of their status before JSON.stringify
 * writes them, and an error body's `details` against the shape the document ties to its code
 * (@swap-gateway/openapi's `detailsShapeProblem`)
 * (a mismatch is logged and answered with INTERNAL_ERROR), so the server cannot drift from the
 * document without a test going red: every one of them with `checkResponses.every` 1 (the sandbox,
 * the tests, development), or one in `every` of each operation and status in a deployment that
 * wants the check's cost off its hot path (a few microseconds of get-quote's work) and keeps it
 * as a sample that logs a drift.
 */
import {
  coerceParameter,
  containsNul,
  detailShapesByCode,
  detailsShapeProblem,
  type Operation,
  type Parameter,
} from '@swap-gateway/openapi';
import type { ErrorObject } from 'ajv';
import { invalidRequest as invalid, type DomainError } from '../errors.js';
import type { Log } from '../log.js';
import type { GatewayDocument } from './document.js';
import { pathNamesNoOperation } from './failures.js';

export interface ParametersMarker {
  'x-parameters': Parameter[];
  /** The operation the route serves, named by register-operations.ts (no second matching of its URL). */
  'x-operation': string;
}
export interface SchemaMarker {
  'x-schema': string;
}

type Validation = { value: unknown } | { error: Error };

export function createCompilers(source: GatewayDocument, log: Log, checkResponses: { every: number }) {
  const { validator } = source;
  const detailShapes = detailShapesByCode(source.document);

  const validateParameters = (specs: Parameter[], data: unknown, operation: Operation | undefined): Validation => {
    const input = (data ?? {}) as Record<string, unknown>;
    const value: Record<string, unknown> = { ...input };
    for (const spec of specs) {
      const raw = input[spec.name];
      if (Array.isArray(raw)) return { error: invalid(`${spec.in} parameter ${spec.name} is given more than once`) };
      if (containsNul(raw)) return { error: invalid(`${spec.in} parameter ${spec.name} contains a NUL character`) };
      // An empty path segment names no operation (GET /v4/get-orders/ is not get-orders); an empty
      // query value is a value, checked against the schema like any other.
      if (spec.in === 'path' && raw === '') return { error: pathNamesNoOperation(operation, `the path has an empty ${spec.name}`) };
      if (raw === undefined) {
        if (spec.required) return { error: invalid(`${spec.in} parameter ${spec.name} is required`) };
        delete value[spec.name];
        continue;
      }
      const candidate = typeof raw === 'string' ? coerceParameter(spec.schema, raw) : raw;
      const check = validator.compile(spec.schemaPointer);
      if (!check(candidate)) return { error: parameterError(spec, candidate, check.errors ?? []) };
      value[spec.name] = candidate;
    }
    return { value };
  };

  const validatorCompiler = ({ schema }: { schema: unknown }) => {
    if ('x-parameters' in (schema as object)) {
      const { 'x-parameters': specs, 'x-operation': operationId } = schema as ParametersMarker;
      const operation = source.operations.find((candidate) => candidate.operationId === operationId);
      return (data: unknown): Validation => validateParameters(specs, data, operation);
    }
    const check = validator.compile((schema as SchemaMarker)['x-schema']);
    return (data: unknown): Validation => {
      if (containsNul(data)) return { error: invalid('the request body contains a NUL character') };
      return check(data) ? { value: data } : { error: bodyError(check.errors ?? []) };
    };
  };

  const serializerCompiler = ({
    schema,
    url,
    method,
    httpStatus,
  }: {
    schema: unknown;
    url: string;
    method: string;
    httpStatus?: string;
  }) => {
    const check = validator.compile((schema as SchemaMarker)['x-schema']);
    const failure = httpStatus !== undefined && /^[45]/.test(httpStatus);
    let sinceChecked = 0;
    return (data: unknown): string => {
      if (++sinceChecked >= checkResponses.every) {
        sinceChecked = 0;
        const problem = !check(data)
          ? validator.describe(check.errors ?? [])
          : failure
            ? detailsShapeProblem(detailShapes, validator, data)
            : undefined;
        if (problem !== undefined) {
          log.error({ url, method, httpStatus, errors: problem }, 'response does not match the document');
          throw new ResponseContractError();
        }
      }
      return JSON.stringify(data);
    };
  };

  return { validatorCompiler, serializerCompiler };
}

/** Thrown when the server is about to answer something the document does not allow: a server bug. */
export class ResponseContractError extends Error {
  constructor() {
    super('response does not match the document');
  }
}

/** Bounds get the documented minimum/actual and max/actual shapes; anything else a message. */
function parameterError(spec: Parameter, value: unknown, errors: ErrorObject[]): DomainError {
  const error = errors[0];
  const actual = String(value);
  if (error?.keyword === 'minimum')
    return invalid(`${spec.name} must be at least ${error.params.limit}`, { minimum: String(error.params.limit), actual });
  if (error?.keyword === 'maximum')
    return invalid(`${spec.name} must be at most ${error.params.limit}`, { max: String(error.params.limit), actual });
  return invalid(`${spec.in} parameter ${spec.name} ${error?.message ?? 'is invalid'}`);
}

/**
 * The most specific of Ajv's errors (deepest in the body) says best what is wrong. Where the only
 * errors there are a oneOf's and its branches' missing members (create-order's body without
 * onramp, offramp or tokenSwap: each branch of the document's oneOfs requires one member of its
 * own), it names them all.
 */
function bodyError(errors: ErrorObject[]): DomainError {
  const deepest = [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0];
  const where = deepest?.instancePath ? `body${deepest.instancePath.replace(/\//g, '.')}` : 'body';
  const here = errors.filter((error) => error.instancePath === deepest?.instancePath);
  const onlyMissingBranches =
    here.some((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf') &&
    here.every((error) => ['oneOf', 'anyOf', 'required'].includes(error.keyword));
  const alternatives = onlyMissingBranches
    ? [...new Set(here.filter((error) => error.keyword === 'required').map((error) => String(error.params.missingProperty)))]
    : [];
  const detail =
    alternatives.length > 1
      ? `${where} must have one of ${alternatives.join(', ')}`
      : deepest?.keyword === 'required'
        ? `${where} must have ${String(deepest.params.missingProperty)}`
        : `${where} ${deepest?.message ?? 'is invalid'}`;
  return invalid(`the request body does not match the document: ${detail}`, { message: detail });
}
