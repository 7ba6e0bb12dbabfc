/** The check of responses against the document (src/http/validation.ts): every one, or a sample. */
import { describe, expect, it } from 'vitest';
import { fastifyUrl, readDocument, responseSchemas } from '../src/http/document.js';
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
