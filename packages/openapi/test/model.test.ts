/**
 * The document model: pointers and the one `$ref` follower, the resolved operations, request
 * matching, parameter coercion and the edge rules, each checked here once for every package that
 * reads the document through them.
 */
import { describe, expect, it } from 'vitest';
import {
  apiKeyLength,
  apiKeyPointer,
  clientErrorAnswer,
  coerceParameter,
  containsNul,
  createSchemaValidator,
  DocumentError,
  documentedCodes,
  documentedErrorCodes,
  documentedResponse,
  emptyPathParameterAnswer,
  escapePointer,
  failureBody,
  failureStatuses,
  jsonContent,
  loadBundle,
  malformedRequestAnswer,
  matchOperation,
  pointerSegments,
  pointerTo,
  readApiKey,
  readOperations,
  requestMethods,
  resolveReference,
  resolveRef,
  valueAt,
  type Operation,
} from '@swap-gateway/openapi';

const document = loadBundle('gateway');
const validator = createSchemaValidator(document);
const operations = readOperations(document);
const byId = (operationId: string): Operation => {
  const found = operations.find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
};

/** A small document to break on purpose. */
const sample = (extra: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  components: {
    parameters: { id: { name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } } },
    schemas: { Id: { type: 'string' }, Loop: { $ref: '#/components/schemas/Loop2' }, Loop2: { $ref: '#/components/schemas/Loop' } },
  },
  paths: {},
  ...extra,
});

describe('pointers and $ref', () => {
  it('escapes and parses pointer tokens as RFC 6901 does', () => {
    expect(escapePointer('/v4/a~b')).toBe('~1v4~1a~0b');
    expect(pointerTo(['paths', '/v4/get-order/{id}', 'get'])).toBe('#/paths/~1v4~1get-order~1{id}/get');
    expect(pointerTo([])).toBe('#');
    expect(pointerSegments('#/paths/~1v4~1a~0b/get')).toEqual(['paths', '/v4/a~b', 'get']);
    expect(valueAt(document, '#/components/parameters/limit/schema')).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('follows a chain of references and says where it ended', () => {
    const parameter = byId('getOrdersV4').definition.parameters as unknown[];
    const limit = resolveReference(document, parameter[2], '#/paths/~1v4~1get-orders~1{user_address}/get/parameters/2');
    expect(limit.pointer).toBe('#/components/parameters/limit');
    expect(limit.value).toMatchObject({ name: 'limit', in: 'query' });
    expect(resolveRef(document, { type: 'string' })).toEqual({ type: 'string' });
  });

  it('refuses a dangling, external or circular reference with the pointer in the message', () => {
    const broken = sample();
    expect(() => resolveRef(broken, { $ref: '#/components/schemas/Missing' })).toThrow(/dangling \$ref #\/components\/schemas\/Missing/);
    expect(() => resolveRef(broken, { $ref: '#/components/schemas/Loop' })).toThrow(
      /\$ref cycle: #\/components\/schemas\/Loop → #\/components\/schemas\/Loop2 → #\/components\/schemas\/Loop$/,
    );
    expect(() => resolveRef(broken, { $ref: './Id.yaml' })).toThrow(/external reference \.\/Id\.yaml/);
    expect(() => resolveRef(broken, { $ref: '#/components/schemas/Missing' })).toThrow(DocumentError);
  });
});

describe('readOperations', () => {
  it('lists every operation of the bundle once, in document order, with its version', () => {
    expect(operations.map(({ method, path, operationId, version }) => `${method} ${path} ${operationId} ${version}`)).toEqual([
      'GET /v4/get-routes getRoutesV4 v4',
      'GET /v4/get-quote getQuoteV4 v4',
      'POST /v4/create-order createOrderV4 v4',
      'PATCH /v4/register-tx registerTxV4 v4',
      'GET /v4/get-order/{id} getOrderV4 v4',
      'GET /v4/get-orders/{user_address} getOrdersV4 v4',
      'GET /v4/get-max-spendable/{address} getMaxSpendableV4 v4',
      'POST /v3/create-order createOrderV3 v3',
      'GET /v3/get-order/{id} getOrderV3 v3',
      'GET /v3/get-orders/{user_address} getOrdersV3 v3',
    ]);
    expect(byId('getQuoteV4').pointer).toBe('#/paths/~1v4~1get-quote/get');
  });

  it('resolves parameters: the component they come from, their schema followed, and a schema pointer every example validates against', () => {
    const amount = byId('getQuoteV4').parameters.find((parameter) => parameter.name === 'amount')!;
    expect(amount).toMatchObject({
      in: 'query',
      required: true,
      pointer: '#/components/parameters/amount',
      schemaPointer: '#/components/parameters/amount/schema',
      example: '1000000',
    });
    expect(amount.schema).toMatchObject({ type: 'string' });
    const withExamples = operations.flatMap((operation) => operation.parameters).filter((parameter) => parameter.example !== undefined);
    expect(withExamples.length).toBeGreaterThan(10);
    for (const parameter of withExamples) {
      expect(
        validator.validate(parameter.schemaPointer, coerceParameter(parameter.schema, String(parameter.example))).valid,
        parameter.name,
      ).toBe(true);
    }
  });

  it("merges path-level parameters under the operation's own, which win by `in` and `name`", () => {
    const merged = readOperations(
      sample({
        paths: {
          '/v1/things/{id}': {
            parameters: [{ $ref: '#/components/parameters/id' }, { name: 'trace', in: 'header', schema: { type: 'string' } }],
            get: {
              operationId: 'getThing',
              parameters: [{ name: 'trace', in: 'header', required: true, schema: { type: 'boolean' } }],
              responses: {},
            },
            delete: { operationId: 'deleteThing', responses: {} },
          },
        },
      }),
    );
    expect(
      merged.map(({ operationId, parameters }) => [
        operationId,
        parameters.map(({ name, in: location, required, schema, pointer }) => ({ name, location, required, type: schema.type, pointer })),
      ]),
    ).toEqual([
      [
        'getThing',
        [
          { name: 'id', location: 'path', required: true, type: 'string', pointer: '#/components/parameters/id' },
          { name: 'trace', location: 'header', required: true, type: 'boolean', pointer: '#/paths/~1v1~1things~1{id}/get/parameters/0' },
        ],
      ],
      [
        'deleteThing',
        [
          { name: 'id', location: 'path', required: true, type: 'string', pointer: '#/components/parameters/id' },
          { name: 'trace', location: 'header', required: false, type: 'string', pointer: '#/paths/~1v1~1things~1{id}/parameters/1' },
        ],
      ],
    ]);
  });

  it('refuses an operation without an operationId, or a dangling parameter, naming where', () => {
    expect(() => readOperations(sample({ paths: { '/a': { get: { responses: {} } } } }))).toThrow('GET /a has no operationId');
    expect(() =>
      readOperations(
        sample({ paths: { '/a': { get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/gone' }], responses: {} } } } }),
      ),
    ).toThrow('dangling $ref #/components/parameters/gone at #/paths/~1a/get/parameters/0');
  });

  it('reads bodies and responses: schema pointers the validator accepts, examples with their values, required headers', () => {
    const createOrder = byId('createOrderV4');
    const body = jsonContent(createOrder.requestBody)!;
    expect(createOrder.requestBody?.required).toBe(true);
    expect(body.schemaPointer).toBe('#/paths/~1v4~1create-order/post/requestBody/content/application~1json/schema');
    expect(validator.validate(body.schemaPointer!, body.examples.onramp!.value).valid).toBe(true);
    expect(Object.keys(createOrder.responses)).toEqual(['201', '400', '401', '429', '500', '503']);
    const unauthorized = createOrder.responses['401']!;
    expect(unauthorized.pointer).toBe('#/components/responses/UnauthorizedV4');
    expect(jsonContent(unauthorized)!.schemaPointer).toBe('#/components/responses/UnauthorizedV4/content/application~1json/schema');
    expect(jsonContent(unauthorized)!.examples.keyLength!.value).toMatchObject({ code: 'INVALID_REQUEST' });
    const retryAfter = createOrder.responses['429']!.headers.find((header) => header.name === 'Retry-After');
    expect(retryAfter).toMatchObject({
      required: true,
      pointer: '#/components/headers/RetryAfter',
      schemaPointer: '#/components/headers/RetryAfter/schema',
    });
    expect(validator.validate(retryAfter!.schemaPointer!, 30).valid).toBe(true);
  });

  it('finds the documented response for a status: exact, then its range, then default', () => {
    const operation = { ...byId('getOrderV4'), responses: { ...byId('getOrderV4').responses } };
    expect(documentedResponse(operation, 404)?.status).toBe('404');
    expect(documentedResponse(operation, 400)).toBeUndefined();
    operation.responses['4XX'] = { ...operation.responses['404']!, status: '4XX' };
    operation.responses.default = { ...operation.responses['500']!, status: 'default' };
    expect(documentedResponse(operation, 400)?.status).toBe('4XX');
    expect(documentedResponse(operation, 302)?.status).toBe('default');
  });
});

describe('matchOperation', () => {
  it('finds the operation of a request and the raw text of its path parameters; the query is no part of the match', () => {
    expect(matchOperation(operations, 'GET', '/v4/get-order/abc%20d?x=1')).toEqual({
      kind: 'operation',
      operation: byId('getOrderV4'),
      pathParameters: { id: 'abc%20d' },
    });
    expect(matchOperation(operations, 'post', '/v3/create-order')).toMatchObject({ kind: 'operation', operation: byId('createOrderV3') });
    expect(matchOperation(operations, 'GET', '/v4/get-order/%ZZ')).toMatchObject({ kind: 'operation', pathParameters: { id: '%ZZ' } });
  });

  it('answers HEAD with its GET', () => {
    expect(matchOperation(operations, 'HEAD', '/v4/get-routes')).toMatchObject({ kind: 'operation', operation: byId('getRoutesV4') });
  });

  it('lists the methods a path allows (HEAD after GET) for a method it does not', () => {
    expect(matchOperation(operations, 'DELETE', '/v4/get-order/abc')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD'] });
    expect(matchOperation(operations, 'GET', '/v4/register-tx')).toEqual({ kind: 'method-not-allowed', allowed: ['PATCH'] });
    expect(matchOperation(operations, 'OPTIONS', '/v4/get-routes')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD'] });
  });

  it('lists the methods requests may use, HEAD after each GET, for CORS', () => {
    expect(requestMethods(operations)).toEqual(['GET', 'HEAD', 'POST', 'PATCH']);
  });

  it('matches an empty parameter segment for the operation to answer, but allows no method on it', () => {
    expect(matchOperation(operations, 'GET', '/v4/get-order/')).toEqual({
      kind: 'operation',
      operation: byId('getOrderV4'),
      pathParameters: { id: '' },
    });
    expect(matchOperation(operations, 'DELETE', '/v4/get-orders/')).toEqual({ kind: 'no-operation' });
  });

  it('matches nothing else: other paths, extra segments, template text taken literally', () => {
    for (const path of ['/v2/get-quote', '/v4/get-order/a/b', '/v4/get-quote/', '/v4/get-routesX', '/v4'])
      expect(matchOperation(operations, 'GET', path), path).toEqual({ kind: 'no-operation' });
    const routes = [{ method: 'GET', path: '/a.b/{x}' }];
    expect(matchOperation(routes, 'GET', '/aXb/1')).toEqual({ kind: 'no-operation' });
    expect(matchOperation(routes, 'GET', '/a.b/1')).toMatchObject({ kind: 'operation', pathParameters: { x: '1' } });
  });
});

describe('coerceParameter', () => {
  it('reads a plain decimal as a number and leaves every other spelling as text', () => {
    for (const type of ['integer', 'number', ['integer', 'null']]) {
      const schema = { type };
      expect(['5', '-3', '2.5', '007', '0'].map((text) => coerceParameter(schema, text))).toEqual([5, -3, 2.5, 7, 0]);
      for (const text of ['0x10', '1e2', ' 5', '5 ', '5.', '.5', '+5', '', 'Infinity', 'NaN', '1_000', '٣'])
        expect(coerceParameter(schema, text), `${JSON.stringify(type)} ${text}`).toBe(text);
    }
  });

  it('reads true and false for a boolean, and leaves text for a string', () => {
    expect(['true', 'false', 'TRUE', '1'].map((text) => coerceParameter({ type: 'boolean' }, text))).toEqual([true, false, 'TRUE', '1']);
    expect(coerceParameter({ type: 'string' }, '5')).toBe('5');
    expect(coerceParameter(undefined, '5')).toBe('5');
  });

  it('so that get-orders takes limit=20 and refuses 0x10, 1e2, " 5", "5." and the empty string', () => {
    const limit = byId('getOrdersV4').parameters.find((parameter) => parameter.name === 'limit')!;
    const accepts = (text: string) => validator.validate(limit.schemaPointer, coerceParameter(limit.schema, text)).valid;
    expect(['20', '1', '16', '100'].map(accepts)).toEqual([true, true, true, true]);
    expect(['0x10', '1e2', ' 5', '5.', '', '2.5', '0', '9'.repeat(400)].map(accepts)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('edge rules', () => {
  const notFound = { code: 'ORDER_NOT_FOUND', error: 'no order has this id, txid or hash', details: null };

  it('holds the API key length to the sentences of the document that state it', () => {
    const scheme = valueAt(document, apiKeyPointer) as { description: string };
    expect(/exactly (\d+) characters/.exec(scheme.description)?.[1]).toBe(String(apiKeyLength));
    for (const name of ['UnauthorizedV4', 'UnauthorizedV3']) {
      const response = valueAt(document, pointerTo(['components', 'responses', name])) as { description: string };
      expect(/not exactly (\d+) characters/.exec(response.description)?.[1], name).toBe(String(apiKeyLength));
    }
  });

  it("answers a request that cannot be read with the documented 400, else get-order's 404, else get-routes' 401", () => {
    expect(Object.fromEntries(operations.map((operation) => [operation.operationId, malformedRequestAnswer(operation)]))).toEqual({
      getRoutesV4: { status: 401, code: 'INVALID_REQUEST' },
      getQuoteV4: { status: 400, code: 'INVALID_REQUEST' },
      createOrderV4: { status: 400, code: 'INVALID_REQUEST' },
      registerTxV4: { status: 400, code: 'INVALID_REQUEST' },
      getOrderV4: { status: 404, code: 'ORDER_NOT_FOUND', example: notFound },
      getOrdersV4: { status: 400, code: 'INVALID_REQUEST' },
      getMaxSpendableV4: { status: 400, code: 'INVALID_REQUEST' },
      createOrderV3: { status: 400, code: 'INVALID_REQUEST' },
      getOrderV3: { status: 404, code: 'ORDER_NOT_FOUND', example: notFound },
      getOrdersV3: { status: 400, code: 'INVALID_REQUEST' },
    });
    expect(malformedRequestAnswer(undefined)).toEqual({ status: 400, code: 'INVALID_REQUEST' });
  });

  it('gives INVALID_REQUEST the message of what was wrong, and another code the body of its example', () => {
    expect(failureBody(malformedRequestAnswer(byId('getOrdersV4')), 'the path is not valid percent-encoding')).toEqual({
      code: 'INVALID_REQUEST',
      error: 'the path is not valid percent-encoding',
      details: { message: 'the path is not valid percent-encoding' },
    });
    expect(failureBody(malformedRequestAnswer(byId('getOrderV4')), 'the path is not valid percent-encoding')).toEqual(notFound);
  });

  it("reads the codes each failure status carries from that response's examples", () => {
    expect(failureStatuses(byId('getOrderV4'))).toEqual(expect.arrayContaining(['404']));
    expect(failureStatuses(byId('getOrderV4')).every((status) => Number(status) >= 400)).toBe(true);
    expect(documentedCodes(byId('getOrderV4'), '404')).toEqual(['ORDER_NOT_FOUND']);
    // The same code can be another status on another operation: register-tx lists it under 400.
    expect(documentedCodes(byId('registerTxV4'), '400')).toContain('ORDER_NOT_FOUND');
    expect(documentedCodes(byId('getQuoteV4'), '200')).toEqual([]);
  });

  it("answers an empty path parameter with 404: the operation's own where it documents one", () => {
    expect(emptyPathParameterAnswer(byId('getOrderV4'))).toEqual({ status: 404, code: 'ORDER_NOT_FOUND', example: notFound });
    expect(emptyPathParameterAnswer(byId('getOrdersV3'))).toEqual({ status: 404, code: 'INVALID_REQUEST' });
  });

  it('reads the key of an Authorization header whose scheme is bearer in any case, then one or more spaces', () => {
    const key = 'k'.repeat(apiKeyLength);
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`])
      expect(readApiKey(header), header).toEqual({ key });
    const malformed = { code: 'INVALID_REQUEST', error: 'the Authorization header must be "Bearer <API key>"' };
    expect(readApiKey(`Basic ${key}`)).toEqual({ refusal: { ...malformed, details: { expected: 'Bearer <API key>', actual: 'Basic' } } });
    expect(readApiKey('Bearer')).toEqual({ refusal: { ...malformed, details: { expected: 'Bearer <API key>', actual: 'Bearer' } } });
    expect(readApiKey(`Bearer\t${key}`)).toMatchObject({ refusal: malformed });
    // The spaces separate; they are not part of the key, whose length is held as it stands.
    for (const [header, actual] of [
      [`Bearer ${key}x`, 33],
      ['Bearer short', 5],
      [`Bearer  ${key.slice(1)}`, 31],
    ] as const) {
      const details = { expected: String(apiKeyLength), actual: String(actual) };
      expect(readApiKey(header), header).toEqual({
        refusal: { code: 'INVALID_REQUEST', error: `the API key must be exactly ${apiKeyLength} characters`, details },
      });
    }
  });

  it('finds a NUL character in a value, a nested one, or a key', () => {
    expect([
      containsNul('a\u0000b'),
      containsNul({ a: [1, { b: 'x\u0000' }] }),
      containsNul({ 'k\u0000': 1 }),
      containsNul(['\u0000']),
    ]).toEqual([true, true, true, true]);
    expect([containsNul('ab'), containsNul({ a: [1, null, { b: 'x' }] }), containsNul(undefined), containsNul(42)]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    let deep: unknown = 'end\u0000';
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    expect(containsNul(deep)).toBe(true);
  });

  it("answers a request Node's parser refuses as the operation its request line names answers a request it cannot read", () => {
    const packet = (text: string) =>
      Object.assign(new Error('parse error'), { code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(text, 'latin1') });
    const overflow = clientErrorAnswer(operations, packet('GET /v4/get-order/abc HTTP/1.1\r\nX-Padding: ppp'));
    expect(overflow).toEqual({ status: 404, body: notFound, method: 'GET' });
    expect(clientErrorAnswer(operations, packet('HEAD /v4/get-routes HTTP/1.1\r\n'))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REQUEST' },
      method: 'HEAD',
    });
    const broken = { ...packet('GET /v4/get-orders/0xabc?limit=5 HTTP/1.1\r\nBroken header\r\n'), code: 'HPE_INVALID_HEADER_TOKEN' };
    expect(clientErrorAnswer(operations, broken)).toEqual({
      status: 400,
      body: { code: 'INVALID_REQUEST', error: 'the request is not valid HTTP', details: { message: 'the request is not valid HTTP' } },
      method: 'GET',
    });
    // No request line to read, or one outside the document: 400.
    expect(clientErrorAnswer(operations, { ...packet('\u0000\u0001garbage'), code: 'HPE_INVALID_METHOD' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST' },
      method: '',
    });
    expect(clientErrorAnswer(operations, packet('GET /v2/orders HTTP/1.1\r\n'))).toMatchObject({
      status: 400,
      body: { code: 'INVALID_REQUEST' },
    });
    expect(clientErrorAnswer(operations, Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))).toMatchObject({
      status: 408,
      body: { code: 'INVALID_REQUEST', details: null },
    });
  });
});

describe('documentedErrorCodes', () => {
  const codes = (schemaName: string) => documentedErrorCodes(document, schemaName).map((entry) => entry.code);

  it("lists an error-code schema's codes with their annotations, through its $refs and branches", () => {
    const v3 = codes('GatewayErrorCodeV3');
    expect(v3).toEqual(expect.arrayContaining(['INVALID_REQUEST', 'ORDER_NOT_FOUND']));
    // V4's schema is V3's (by $ref) or a code added in V4: every V3 code first, then the added ones.
    expect(codes('GatewayErrorCodeV4').slice(0, v3.length)).toEqual(v3);
    expect(codes('GatewayErrorCodeV4').length).toBeGreaterThan(v3.length);
    expect(new Set(codes('GatewayErrorCodeV4')).size).toBe(codes('GatewayErrorCodeV4').length);
    const invalidRequest = documentedErrorCodes(document, 'GatewayErrorCodeV4').find((entry) => entry.code === 'INVALID_REQUEST')!;
    expect(invalidRequest.meaning).toEqual(expect.any(String));
    expect(invalidRequest.introducedIn).toEqual(expect.any(String));
  });

  it('gives no annotation where the enum has none, and refuses a schema the document does not have', () => {
    const plain = sample({
      components: { schemas: { Codes: { anyOf: [{ enum: ['A'] }, { $ref: '#/components/schemas/More' }] }, More: { enum: ['B'] } } },
    });
    expect(documentedErrorCodes(plain, 'Codes')).toEqual([
      { code: 'A', meaning: undefined, introducedIn: undefined },
      { code: 'B', meaning: undefined, introducedIn: undefined },
    ]);
    expect(() => documentedErrorCodes(plain, 'Gone')).toThrow(DocumentError);
  });
});
