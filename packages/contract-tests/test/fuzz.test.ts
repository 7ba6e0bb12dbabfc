/**
 * Checks in the manner of Schemathesis, over every operation: generated valid inputs are accepted,
 * invalid inputs are refused with 400 and the error body, a malformed API key is refused, and
 * requests outside the document are answered without a 5xx. Every response also passes the contract
 * check of the gateway (documented status, content type, schema, headers).
 */
import { apiKeyLength, type Operation } from '@swap-gateway/openapi';
import { describe, expect } from 'vitest';
import type { Capability } from '../src/capabilities.js';
import { exampleValues, operation, operations } from '../src/document.js';
import { ContractViolation, type GatewayRequest } from '../src/gateway.js';
import { edgeBodyCases, edgeParameterCases, exampleRequest, generatedRequests, type EdgeCase } from '../src/inputs.js';
import { contractTest, gateway, has } from '../src/suite.js';

/** Requests that change state need a target that accepts writes (staging is read-only by default). */
const writing = (op: Operation): Capability[] => (op.method === 'GET' ? [] : ['writes']);

/** Strings up to 512 characters; more requests than that cost the rate limit the edge cases need. */
const generatedPerOperation = 8;

describe('generated valid inputs are accepted', () => {
  operations.forEach((op, index) => {
    contractTest(`${op.operationId}: ${generatedPerOperation} generated requests`, writing(op), async () => {
      for (const request of generatedRequests(op, generatedPerOperation, 1000 + index)) {
        const answer = await gateway.send(request);
        // A target that only knows the schemas must accept them; one that applies the rules may
        // refuse them (unknown chain, bad signature...) but only with a documented answer, which
        // the gateway's contract check has already verified.
        if (!has('applies business rules')) expect(answer.status, JSON.stringify(request)).toBeLessThan(300);
        else expect(answer.status, JSON.stringify(request)).toBeLessThan(500);
      }
    });
  });
});

/**
 * Sends each case and collects every failure, so that one run lists all the edge inputs a target
 * gets wrong rather than the first. An answer must pass the contract check (documented status, no
 * 5xx, schema); an input outside the document must get a 4xx; an input inside it, a 2xx from a
 * target that only knows the schemas.
 */
async function failuresOf(cases: EdgeCase[]): Promise<string[]> {
  const failures: string[] = [];
  for (const { what, request, invalid } of cases) {
    try {
      // A connection of its own: a target that drops the connection after refusing one case
      // (Node answers an oversized request line with 431 and closes) must not fail the next.
      const answer = await gateway.send({ ...request, headers: { ...request.headers, connection: 'close' } });
      if (invalid && (answer.status < 400 || answer.status >= 500))
        failures.push(`${what}: outside the document, yet answered ${answer.status}`);
      if (invalid === false && !has('applies business rules') && answer.status >= 300)
        failures.push(`${what}: valid by the schemas, yet answered ${answer.status}`);
    } catch (error) {
      const message = error instanceof ContractViolation ? error.message : `no answer: ${(error as Error).message}`;
      failures.push(`${what}: ${message.slice(0, 600)}`);
    }
  }
  return failures;
}

describe('edge inputs get a documented answer, and a 4xx when outside the document', () => {
  operations.forEach((op, index) => {
    const parameterCases = edgeParameterCases(op, 3000 + index);
    if (parameterCases.length) {
      contractTest(
        `${op.operationId}: ${parameterCases.length} parameters at the edge (NUL, controls, bad percent-encoding, 20,000 digits, unicode, arrays)`,
        writing(op),
        async () => {
          expect(await failuresOf(parameterCases)).toEqual([]);
        },
      );
    }
    const bodyCases = edgeBodyCases(op, 2000 + index);
    if (bodyCases.length) {
      contractTest(
        `${op.operationId}: ${bodyCases.length} body values at the edge (NUL, lone surrogates, long strings, 1e308, wrong types)`,
        writing(op),
        async () => {
          expect(await failuresOf(bodyCases)).toEqual([]);
        },
      );
    }
  });
});

interface InvalidCase {
  operationId: string;
  what: string;
  change: (request: GatewayRequest) => GatewayRequest;
  /** Invalid by the description's rules rather than by the schema: only a rule-applying target refuses it. */
  byRule?: boolean;
}

const withQuery = (query: Record<string, string | undefined>) => (request: GatewayRequest) => ({
  ...request,
  query: { ...request.query, ...query },
});
const withBody = (body: unknown) => (request: GatewayRequest) => ({ ...request, body });
const withRawBody = (rawBody: string, contentType?: string) => (request: GatewayRequest) => ({
  ...request,
  body: undefined,
  rawBody,
  contentType,
});
const withPath = (path: string) => (request: GatewayRequest) => ({ ...request, path });

const quoteRequired = operation('getQuoteV4')
  .parameters.filter((parameter) => parameter.required)
  .map(({ name }) => name);
const onrampQuote = exampleValues(operation('createOrderV4').requestBody).onramp as { onramp: Record<string, unknown> };

const invalidCases: InvalidCase[] = [
  ...quoteRequired.map((name) => ({
    operationId: 'getQuoteV4',
    what: `missing required ${name}`,
    change: withQuery({ [name]: undefined }),
  })),
  { operationId: 'getQuoteV4', what: 'amount that is not a number', change: withQuery({ amount: 'ten' }) },
  { operationId: 'getQuoteV4', what: 'negative amount', change: withQuery({ amount: '-5' }) },
  { operationId: 'getQuoteV4', what: 'slippage as a percentage', change: withQuery({ slippage: '3%' }) },
  {
    operationId: 'getQuoteV4',
    what: 'affiliate without bps',
    change: withQuery({ affiliates: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }),
  },
  { operationId: 'getQuoteV4', what: 'malformed recipient address', change: withQuery({ recipient: 'not-an-address' }), byRule: true },
  { operationId: 'getQuoteV4', what: 'malformed refund address', change: withQuery({ refundAddress: 'bc1-not-an-address' }), byRule: true },
  ...['getOrdersV4', 'getOrdersV3'].flatMap((operationId) => [
    { operationId, what: 'limit of 0', change: withQuery({ limit: '0' }) },
    { operationId, what: 'limit that is not an integer', change: withQuery({ limit: 'ten' }) },
    { operationId, what: 'fractional limit', change: withQuery({ limit: '2.5' }) },
  ]),
  {
    operationId: 'getMaxSpendableV4',
    what: 'malformed Bitcoin address',
    change: withPath('/v4/get-max-spendable/not-a-bitcoin-address'),
    byRule: true,
  },
  ...['createOrderV4', 'createOrderV3'].flatMap((operationId) => [
    { operationId, what: 'empty object', change: withBody({}) },
    { operationId, what: 'body that is not JSON', change: withRawBody('{"onramp":') },
    // The description answers every create-order failure with 400; a media-type refusal is one.
    { operationId, what: 'quote sent as text/plain', change: withRawBody(JSON.stringify(onrampQuote), 'text/plain') },
    { operationId, what: 'body sent as application/xml', change: withRawBody('<onramp/>', 'application/xml') },
    { operationId, what: 'quote with two route keys', change: withBody({ ...onrampQuote, tokenSwap: onrampQuote.onramp }) },
    { operationId, what: 'empty onramp quote', change: withBody({ onramp: {} }) },
    {
      operationId,
      what: 'amount that is not digits',
      change: withBody({
        onramp: { ...onrampQuote.onramp, inputAmount: { ...(onrampQuote.onramp.inputAmount as object), amount: '1e6' } },
      }),
    },
    { operationId, what: 'array body', change: withBody([onrampQuote]) },
  ]),
  { operationId: 'registerTxV4', what: 'empty object', change: withBody({}) },
  {
    operationId: 'registerTxV4',
    what: 'bare bitcoin_txid',
    change: withBody({ onramp: { order_id: 'o-1', bitcoin_txid: 'a'.repeat(64) } }),
  },
  {
    operationId: 'registerTxV4',
    what: 'retired src_tx_hash and src_chain body',
    change: withBody({ onramp: { order_id: 'o-1', src_tx_hash: '0xab', src_chain: 'bitcoin' } }),
  },
  { operationId: 'registerTxV4', what: 'offramp body', change: withBody({ offramp: { order_id: 'o-1', bitcoin_tx_hex: '00' } }) },
  {
    operationId: 'registerTxV4',
    what: 'transaction that is not hex',
    change: withBody({ onramp: { order_id: 'o-1', bitcoin_tx_hex: 'zz' } }),
  },
  { operationId: 'registerTxV4', what: 'odd-length hex', change: withBody({ onramp: { order_id: 'o-1', bitcoin_tx_hex: 'abc' } }) },
];

describe('invalid inputs are refused with 400 and the error body', () => {
  for (const { operationId, what, change, byRule } of invalidCases) {
    const op = operation(operationId);
    const requires: Capability[] = [...writing(op), ...(byRule ? (['applies business rules'] as const) : [])];
    contractTest(`${operationId}: ${what}`, requires, async () => {
      const answer = await gateway.send<{ code?: string; error: string }>(change(exampleRequest(op)));
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toEqual(expect.any(String));
      // register-tx's error body makes `code` optional; every other 400 carries INVALID_REQUEST.
      if (operationId !== 'registerTxV4' || answer.body.code !== undefined) expect(answer.body.code).toBe('INVALID_REQUEST');
    });
  }
});

describe(`an API key that is not ${apiKeyLength} characters is refused`, () => {
  for (const op of operations) {
    contractTest(
      `${op.operationId} refuses keys of ${apiKeyLength - 1} and ${apiKeyLength + 1} characters with 401`,
      writing(op),
      async () => {
        for (const apiKey of ['k'.repeat(apiKeyLength - 1), 'k'.repeat(apiKeyLength + 1)]) {
          const answer = await gateway.send<{ code: string }>({ ...exampleRequest(op), apiKey });
          expect(answer.status).toBe(401);
          expect(answer.body.code).toBe('INVALID_REQUEST');
        }
      },
    );
  }
});

describe('HEAD answers like GET, without the body', () => {
  for (const op of operations.filter(({ method }) => method === 'GET')) {
    contractTest(`HEAD ${op.path} answers the status of its GET (${op.operationId})`, [], async () => {
      const request = exampleRequest(op);
      const get = await gateway.send(request);
      const head = await gateway.send<string>({ ...request, method: 'HEAD' });
      expect(head.status).toBe(get.status);
      expect(head.body).toBe('');
    });
  }
  contractTest('HEAD on an operation that is not a GET gets 404 or 405', [], async () => {
    const head = await gateway.send({ method: 'HEAD', path: operation('createOrderV4').path });
    expect([404, 405]).toContain(head.status);
  });
});

describe('requests outside the document are answered without a 5xx', () => {
  const outside: GatewayRequest[] = [
    { path: '/v4/no-such-operation' },
    { path: '/v1/get-quote' },
    { path: '/v2/get-routes' },
    { path: '/v5/get-routes' },
    { path: '/v3/get-quote' },
    { path: '/v4/get-order' },
    { path: '/v4/get-order/' },
    { path: '/v4//get-order/abc' },
    { path: '/v4/get-orders//' },
    { path: '/v4/%ZZ' },
    { path: '/v4/get-routes%00' },
    { path: '/v4/get-routes/extra' },
    { method: 'DELETE', path: '/v4/get-quote' },
    { method: 'POST', path: '/v4/get-routes', body: {} },
    { method: 'PUT', path: '/v4/create-order', body: {} },
    { method: 'GET', path: '/v4/register-tx' },
  ];
  for (const request of outside) {
    contractTest(`${request.method ?? 'GET'} ${request.path} gets 404 or 405 with the error body`, [], async () => {
      const answer = await gateway.send(request);
      // The contract check requires 404/405 and the error body for anything outside the document.
      expect(answer.operation).toBeUndefined();
      expect([404, 405]).toContain(answer.status);
    });
  }
});
