/** The check of responses against the document (src/http/validation.ts): every one, or a sample. */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.js';
import { fastifyUrl, readDocument, responseSchemas } from '../src/http/document.js';
import { answerFailure } from '../src/http/failures.js';
import { createCompilers, ResponseContractError } from '../src/http/validation.js';

const source = readDocument();
const getRoutes = source.operations.find((operation) => operation.operationId === 'getRoutesV4')!;
const logged: unknown[] = [];
const log = { error: (details: unknown) => logged.push(details) } as never;

/** get-routes' 200 serializer, checking one response in `every`. */
const serializer = (every: number) =>
  createCompilers(source, log, { every }).serializerCompiler({
    schema: { 'x-schema': responseSchemas(getRoutes)['200'] },
    url: fastifyUrl(getRoutes.path),
    method: 'GET',
    httpStatus: '200',
  });

const valid = [
  {
    srcChain: 'bitcoin',
    srcToken: '0x0000000000000000000000000000000000000000',
    dstChain: 'bob',
    dstToken: '0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3',
  },
];
const invalid = [{ srcChain: 'bitcoin' }];

describe('response check', () => {
  it('checks every response by default and refuses one the document does not allow', () => {
    const serialize = serializer(1);
    expect(serialize(valid)).toBe(JSON.stringify(valid));
    for (let i = 0; i < 3; i++) expect(() => serialize(invalid)).toThrow(ResponseContractError);
    expect(logged).toHaveLength(3);
  });

  it('checks one response in `every` when sampling, and lets the others out as they are', () => {
    logged.length = 0;
    const serialize = serializer(3);
    expect([serialize(invalid), serialize(invalid)]).toEqual([JSON.stringify(invalid), JSON.stringify(invalid)]);
    expect(() => serialize(invalid)).toThrow(ResponseContractError);
    expect(serialize(invalid)).toBe(JSON.stringify(invalid));
    expect(logged).toHaveLength(1);
  });
});

describe("an error body's details", () => {
  const getQuote = source.operations.find((operation) => operation.operationId === 'getQuoteV4')!;
  const serialize = createCompilers(source, log, { every: 1 }).serializerCompiler({
    schema: { 'x-schema': responseSchemas(getQuote)['400'] },
    url: fastifyUrl(getQuote.path),
    method: 'GET',
    httpStatus: '400',
  });
  const body = (code: string, details: unknown) => ({ code, error: 'refused', details });

  it('are checked against the shape the document ties to the code, and left to the schema for the other codes', () => {
    logged.length = 0;
    const expectedActual = body('INSUFFICIENT_AMOUNT', { expected: '10000', actual: '5000' });
    expect(serialize(expectedActual)).toBe(JSON.stringify(expectedActual));
    // Valid against GatewayErrorV4 (a shape of the set), not INSUFFICIENT_AMOUNT's shape.
    expect(() => serialize(body('INSUFFICIENT_AMOUNT', { minimum: '10000', actual: '5000' }))).toThrow(ResponseContractError);
    expect(() => serialize(body('EXCEEDED_LIMIT', null))).toThrow(ResponseContractError);
    expect(logged).toHaveLength(2);
    expect(JSON.stringify(logged[0])).toMatch(/INSUFFICIENT_AMOUNT are not its shape expectedActual/);
    const untied = body('SLIPPAGE_TOO_LOW', { minimum: '10', actual: '5' });
    expect(serialize(untied)).toBe(JSON.stringify(untied));
  });

  it('of a DomainError are typed by its code: the compiler refuses another shape, and the check catches one forced through', () => {
    // @ts-expect-error INSUFFICIENT_AMOUNT carries { expected, actual }
    const minimum = new DomainError('INSUFFICIENT_AMOUNT', 'below the minimum', { minimum: '10000', actual: '5000' });
    // @ts-expect-error INSUFFICIENT_SOLVER_BALANCE carries { limit, token, chain_id }
    const liquidity = new DomainError('INSUFFICIENT_SOLVER_BALANCE', 'no liquidity', { required: '2', available: '1' });
    // @ts-expect-error a code tied to a shape carries it, not null
    const limit = new DomainError('EXCEEDED_LIMIT', 'too much', null);
    for (const error of [minimum, liquidity, limit])
      expect(() => serialize(answerFailure(getQuote, error).body())).toThrow(ResponseContractError);
    const right = new DomainError('INSUFFICIENT_AMOUNT', 'below the minimum', { expected: '10000', actual: '5000' });
    expect(serialize(answerFailure(getQuote, right).body())).toContain('"expected":"10000"');
  });
});
