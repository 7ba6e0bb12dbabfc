/**
 * The contract check itself must be able to fail: each way a response can break the document is
 * shown to be caught, on responses made up here (no target involved).
 */
import { describe, expect, it } from 'vitest';
import { contractProblems } from '../src/checker.js';
import { exampleValues, operation } from '../src/document.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...headers }),
  text: JSON.stringify(body),
});
const error = { code: 'EXCEEDED_LIMIT', error: 'slow down', details: { limit: '60' } };
const getOrder = operation('getOrderV4');
const example = exampleValues(getOrder.responses['200']).success;

describe('the contract check', () => {
  it('passes a documented status with a valid body', () => {
    expect(contractProblems(getOrder, json(200, example))).toEqual([]);
  });

  it.each([
    ['an undocumented status', json(400, error), /status 400 is not documented/],
    ['an unrequested 5xx', json(500, { code: 'INTERNAL_ERROR', error: 'boom' }), /answered 500/],
    ['a body that breaks the schema', json(200, { ...(example as object), status: { inProgress: {}, success: {} } }), /does not validate/],
    [
      'an undocumented content type',
      { ...json(200, example), headers: new Headers({ 'content-type': 'text/html' }) },
      /content type text\/html is not documented/,
    ],
    ['a missing required header', json(429, error), /required header Retry-After is missing/],
    ['a required header of the wrong type', json(429, error, { 'retry-after': 'soon' }), /header Retry-After/],
    [
      "details that are a shape of the set but not their code's",
      json(429, { ...error, details: { max: '60', actual: '61' } }, { 'retry-after': '1' }),
      /the details of EXCEEDED_LIMIT are not its shape limit \(limit\)/,
    ],
    ['JSON that is not JSON', { ...json(200, example), text: '{"id":' }, /not JSON/],
  ])('catches %s', (_what, response, problem) => {
    expect(contractProblems(getOrder, response).join('\n')).toMatch(problem);
  });

  it('holds a target that promises full error bodies to code, error and details', () => {
    const notFound = { code: 'ORDER_NOT_FOUND', error: 'no such order', details: null };
    expect(contractProblems(getOrder, json(404, notFound), { fullErrorBodies: true })).toEqual([]);
    const { details: _details, ...withoutDetails } = notFound;
    const { error: _error, ...withoutError } = notFound;
    // The document requires only `code`: these pass for staging and fail for a local target.
    for (const body of [withoutDetails, withoutError]) expect(contractProblems(getOrder, json(404, body))).toEqual([]);
    expect(contractProblems(getOrder, json(404, withoutDetails), { fullErrorBodies: true }).join('\n')).toMatch(/no `details`/);
    expect(contractProblems(getOrder, json(404, withoutError), { fullErrorBodies: true }).join('\n')).toMatch(/no string `error`/);
    expect(contractProblems(undefined, json(404, { code: 'INVALID_REQUEST' }), { fullErrorBodies: true }).join('\n')).toMatch(
      /no string `error`[\s\S]*no `details`/,
    );
  });

  it("holds every target's error details to their code's shape, and leaves the other codes to the schema", () => {
    const getQuote = operation('getQuoteV4');
    const insufficient = (details: unknown) => json(400, { code: 'INSUFFICIENT_AMOUNT', error: 'too little', details });
    expect(contractProblems(getQuote, insufficient({ expected: '10000', actual: '1' }))).toEqual([]);
    // The body the server answered before: valid against the schema (a shape of the set), not INSUFFICIENT_AMOUNT's.
    for (const fullErrorBodies of [false, true])
      expect(contractProblems(getQuote, insufficient({ minimum: '10000', actual: '1' }), { fullErrorBodies }).join('\n')).toMatch(
        /the details of INSUFFICIENT_AMOUNT are not its shape expectedActual/,
      );
    expect(contractProblems(getQuote, insufficient(null)).join('\n')).toMatch(/INSUFFICIENT_AMOUNT are not its shape/);
    // The field is optional: a body without details is left to the full-error-body check.
    expect(contractProblems(getQuote, json(400, { code: 'INSUFFICIENT_AMOUNT', error: 'too little' }))).toEqual([]);
    expect(
      contractProblems(getQuote, json(400, { code: 'SLIPPAGE_TOO_LOW', error: 'x', details: { minimum: '10', actual: '1' } })),
    ).toEqual([]);
  });

  it("holds a HEAD answer to its GET's statuses and to an empty body", () => {
    const head = (status: number, text: string) => ({ status, headers: new Headers({ 'content-type': 'application/json' }), text });
    expect(contractProblems(getOrder, head(200, ''), { head: true })).toEqual([]);
    expect(contractProblems(getOrder, head(200, JSON.stringify(example)), { head: true }).join('\n')).toMatch(/HEAD answer carries a body/);
    expect(contractProblems(getOrder, head(400, ''), { head: true }).join('\n')).toMatch(/status 400 is not documented/);
    expect(contractProblems(undefined, head(200, ''), { head: true }).join('\n')).toMatch(/not 404 or 405/);
  });

  it('holds requests outside the document to 404/405 and the error body', () => {
    expect(contractProblems(undefined, json(200, { ok: true })).join('\n')).toMatch(/not 404 or 405[\s\S]*does not validate/);
    expect(contractProblems(undefined, json(404, { code: 'INVALID_REQUEST', error: 'no operation' }))).toEqual([]);
  });
});
