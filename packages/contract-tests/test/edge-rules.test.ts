/**
 * The edge rules the document decides once (@swap-gateway/openapi's coerceParameter and
 * malformedRequestAnswer), held on every target: the mock and the server once read a number in the
 * query differently (`limit=0x10` was a page size to one and a 400 to the other) and answered an
 * unreadable get-order id with different codes. The suite computes what to expect with the same
 * functions, and pins the cases where the copies disagreed.
 */
import { coerceParameter, malformedRequestAnswer } from '@swap-gateway/openapi';
import { describe, expect } from 'vitest';
import { operation, operations, validator } from '../src/document.js';
import { exampleRequest, pathWith } from '../src/inputs.js';
import { contractTest, gateway } from '../src/suite.js';

/** The spellings of a number the copies read differently, and two they agree on. */
const numberTexts = ['20', '16', '0x10', '1e2', ' 5', '5.', '+5', ''];

describe('a number in the query is a plain decimal, nothing else', () => {
  const numeric = operations.flatMap((op) =>
    op.parameters.filter((parameter) => parameter.in === 'query' && ['integer', 'number'].includes(String(parameter.schema.type))).map((parameter) => ({ op, parameter })),
  );

  contractTest('the document has numeric query parameters to try, and the rule refuses the disputed spellings', [], async () => {
    expect(numeric.map(({ op, parameter }) => `${op.operationId} ${parameter.name}`)).toEqual(['getOrdersV4 limit', 'getOrdersV3 limit']);
    const limit = numeric[0]!.parameter;
    const accepted = numberTexts.filter((text) => validator.validate(limit.schemaPointer, coerceParameter(limit.schema, text)).valid);
    expect(accepted).toEqual(['20', '16']);
  });

  for (const { op, parameter } of numeric) {
    contractTest(`${op.operationId}: ${parameter.name} = ${numberTexts.map((text) => JSON.stringify(text)).join(', ')}`, [], async () => {
      for (const text of numberTexts) {
        const base = exampleRequest(op);
        const answer = await gateway.send<{ code?: string }>({ ...base, query: { ...base.query, [parameter.name]: text } });
        const valid = validator.validate(parameter.schemaPointer, coerceParameter(parameter.schema, text)).valid;
        if (valid) expect(answer.status, `${parameter.name}=${JSON.stringify(text)}`).toBeLessThan(300);
        else expect([answer.status, answer.body.code], `${parameter.name}=${JSON.stringify(text)}`).toEqual([400, 'INVALID_REQUEST']);
      }
    });
  }
});

describe('a request that cannot be read gets the documented status: 400, else get-order\'s 404, else get-routes\' 401', () => {
  const withPathParameter = operations.filter((op) => op.parameters.some((parameter) => parameter.in === 'path'));

  contractTest('the rule answers get-order with its 404 and the other operations that read a path with 400', [], async () => {
    expect(Object.fromEntries(withPathParameter.map((op) => [op.operationId, malformedRequestAnswer(op)]))).toMatchObject({
      getOrderV4: { status: 404, code: 'ORDER_NOT_FOUND' },
      getOrdersV4: { status: 400, code: 'INVALID_REQUEST' },
      getMaxSpendableV4: { status: 400, code: 'INVALID_REQUEST' },
      getOrderV3: { status: 404, code: 'ORDER_NOT_FOUND' },
      getOrdersV3: { status: 400, code: 'INVALID_REQUEST' },
    });
  });

  for (const op of withPathParameter) {
    const expected = malformedRequestAnswer(op);
    contractTest(`${op.operationId}: a path parameter that is not percent-encoded UTF-8 (%ZZ, %C0%AF, %FF) is ${expected.status} ${expected.code}`, [], async () => {
      const { name } = op.parameters.find((parameter) => parameter.in === 'path')!;
      for (const unreadable of ['%ZZ', '%C0%AF', '%FF']) {
        const path = pathWith(op, name, unreadable);
        const answer = await gateway.send<{ code?: string }>({ ...exampleRequest(op), path });
        expect([answer.status, answer.body.code], `${op.operationId} ${path}`).toEqual([expected.status, expected.code]);
      }
    });
  }

  contractTest('getQuoteV4: a query value that is not percent-encoded UTF-8 is 400', [], async () => {
    const op = operation('getQuoteV4');
    const { srcChain: _unread, ...query } = exampleRequest(op).query ?? {};
    const answer = await gateway.send<{ code?: string }>({ ...exampleRequest(op), query, rawQuery: 'srcChain=bitcoin%ZZ' });
    // The server reads the text as it stands (an unknown chain), the mock refuses it unread: both the documented 400 INVALID_REQUEST.
    const expected = malformedRequestAnswer(op);
    expect([answer.status, answer.body.code]).toEqual([expected.status, expected.code]);
  });

  contractTest('getRoutesV4, which reads no query, answers as if an unreadable one were not there', [], async () => {
    const answer = await gateway.send({ ...exampleRequest(operation('getRoutesV4')), rawQuery: '%ZZ=%ZZ' });
    expect(answer.status).toBe(200);
  });
});
