/**
 * Which status answers which code, per operation: the table of src/http/failures.ts against the
 * document. Every code an operation's failure examples list is answered with that status; every
 * code of the API is answered with a status the operation documents; the rules for what the
 * examples do not list are pinned here by name.
 */
import { describe, expect, it } from 'vitest';
import { documentedCodes, documentedErrorCodes, failureStatuses, loadBundle, type Operation } from '@swap-gateway/openapi';
import { DependencyUnavailable, DomainError, orderNotFound, OrderStateError, type ErrorCode } from '../src/errors.js';
import { readDocument } from '../src/http/document.js';
import {
  answerFailure,
  edgeStatuses,
  dependencyUnavailable,
  internalError,
  malformedRequest,
  pathNamesNoOperation,
  rateLimited,
  statusTable,
  unauthorized,
} from '../src/http/failures.js';

const document = loadBundle('gateway');
const { operations } = readDocument(document);
const operation = (operationId: string) => operations.find((candidate) => candidate.operationId === operationId)!;
/** Every code of the API: V4's list takes in V3's. */
const allCodes = documentedErrorCodes(document, 'GatewayErrorCodeV4').map((entry) => entry.code as ErrorCode);
/** The codes each failure status of the operation lists, by status. */
const codesByStatus = (candidate: Operation) =>
  Object.fromEntries(failureStatuses(candidate).map((status) => [status, documentedCodes(candidate, status)]));
const answer = (operationId: string | undefined, error: DomainError) => {
  const failure = answerFailure(operationId === undefined ? undefined : operation(operationId), error);
  return `${failure.status} ${failure.code}`;
};

/** The edge's own failures, by the status they answer on every operation. */
const edgeFailures: Record<string, { status: number; code: string }> = {
  401: unauthorized('unknown API key', null),
  429: rateLimited(10, 60),
  500: internalError(),
  503: dependencyUnavailable(new DependencyUnavailable('database', new Error('connect ECONNREFUSED'))),
};

describe('the document lists the codes of every failure status', () => {
  it.each(operations.map((candidate) => [candidate.operationId, candidate] as const))('%s', (_id, candidate: Operation) => {
    const statuses = failureStatuses(candidate);
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(documentedCodes(candidate, status), `${candidate.operationId} ${status}`).not.toHaveLength(0);
  });

  it('reads them from the examples, shared components included', () => {
    expect(codesByStatus(operation('getOrderV4'))).toEqual({
      401: ['INVALID_REQUEST'],
      404: ['ORDER_NOT_FOUND'],
      429: ['EXCEEDED_LIMIT'],
      500: ['INTERNAL_ERROR', 'UNKNOWN'],
      503: ['INTERNAL_ERROR'],
    });
    expect(documentedCodes(operation('registerTxV4'), '400')).toContain('ORDER_NOT_FOUND');
  });
});

describe('each code an operation lists answers with its status', () => {
  const cases = operations.flatMap((candidate) =>
    Object.entries(codesByStatus(candidate))
      .filter(([status]) => !edgeStatuses.includes(status))
      .flatMap(([status, codes]) => codes.map((code) => [candidate.operationId, status, code] as const)),
  );
  it.each(cases)('%s: %s %s', (operationId, status, code) => {
    expect(answer(operationId, new DomainError(code as ErrorCode, 'refused', null))).toBe(`${status} ${code}`);
  });

  it.each(edgeStatuses.map((status) => [status]))("the edge's own %s, with a code every operation lists under it", (status) => {
    const edge = edgeFailures[status]!;
    expect(edge.status).toBe(Number(status));
    for (const candidate of operations) expect(documentedCodes(candidate, status), candidate.operationId).toContain(edge.code);
  });
});

describe('every code answers with a status the operation documents', () => {
  it.each(operations.map((candidate) => [candidate.operationId]))('%s', (operationId) => {
    const documented = failureStatuses(operation(operationId)).map(Number);
    for (const code of allCodes) {
      const failure = answerFailure(operation(operationId), new DomainError(code, 'refused', null));
      expect(documented, `${operationId} ${code}`).toContain(failure.status);
    }
  });
});

describe('what the examples do not list', () => {
  it('is 400 with its code where the operation documents 400', () => {
    expect(
      answer('getQuoteV4', new DomainError('EXCEEDED_LIMIT', 'amount is above the largest amount of this route', { limit: '1000000000' })),
    ).toBe('400 EXCEEDED_LIMIT');
    expect(answer('createOrderV4', new DomainError('PER_ACCOUNT_LIMIT_EXCEEDED', 'limit', null))).toBe('400 PER_ACCOUNT_LIMIT_EXCEEDED');
  });

  it('is an unknown order on get-order, which documents no 400', () => {
    expect(answer('getOrderV4', new DomainError('INVALID_REQUEST', 'id contains a NUL character', null))).toBe('404 ORDER_NOT_FOUND');
    expect(answer('getOrderV3', new DomainError('INVALID_REQUEST', 'id is too long', null))).toBe('404 ORDER_NOT_FOUND');
  });

  it('is 401 on get-routes, which takes no input but its headers', () => {
    expect(`${malformedRequest(operation('getRoutesV4'), 'bad headers').status}`).toBe('401');
  });

  it('outside the document: 400, an unknown order 404, an order in the wrong state 409', () => {
    expect(answer(undefined, new DomainError('INVALID_REQUEST', 'count', null))).toBe('400 INVALID_REQUEST');
    expect(answer(undefined, orderNotFound('no order has this id'))).toBe('404 ORDER_NOT_FOUND');
    expect(answer(undefined, new OrderStateError('the order is already success'))).toBe('409 INVALID_REQUEST');
    expect(malformedRequest(undefined, 'broken').status).toBe(400);
  });

  it('an empty path segment is an unknown order on get-order, an unknown path elsewhere', () => {
    const onGetOrder = pathNamesNoOperation(operation('getOrderV4'), 'the path has an empty id');
    const onGetOrders = pathNamesNoOperation(operation('getOrdersV4'), 'the path has an empty user_address');
    expect([onGetOrder.status, onGetOrder.code]).toEqual([404, 'ORDER_NOT_FOUND']);
    expect([onGetOrders.status, onGetOrders.code, onGetOrders.message]).toEqual([
      404,
      'INVALID_REQUEST',
      'the path has an empty user_address: it names no operation',
    ]);
  });
});

describe('a status is decided once', () => {
  it('a code listed under two statuses of one operation stops the server', () => {
    // register-tx's 400 lists ORDER_NOT_FOUND; give it get-order's 404, which lists it too.
    const registerTx = operation('registerTxV4');
    const ambiguous = { ...registerTx, responses: { ...registerTx.responses, 404: operation('getOrderV4').responses['404']! } };
    expect(() => statusTable(ambiguous)).toThrow('registerTxV4 lists ORDER_NOT_FOUND under 400 and 404');
  });
});
