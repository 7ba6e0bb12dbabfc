/**
 * One small before/after document pair per rule: each change must be found,
 * at the right place, with the right direction for clients.
 */
import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../src/diff.js';
import { documentWith, object, type OperationSpec } from './documents.js';

/** The changes from `before` to `after`, as `severity rule location`. */
function changes(before: OperationSpec, after: OperationSpec): string[] {
  return diffDocuments(documentWith(before), documentWith(after)).operations.flatMap((operation) =>
    operation.changes.map((change) => `${change.severity} ${change.rule} ${change.location}`),
  );
}

const response = (schema: object) => ({ responses: { '200': schema } }) as OperationSpec;
const request = (schema: object) => ({ request: schema }) as OperationSpec;
const string = { type: 'string' };

describe('response fields', () => {
  const before = response(object({ id: string, note: string }, ['id', 'note']));

  it('a removed response field is breaking', () => {
    expect(changes(before, response(object({ id: string }, ['id'])))).toEqual(['breaking field-removed response 200 body field note']);
  });

  it('a response field made optional is breaking; made required is compatible', () => {
    expect(changes(before, response(object({ id: string, note: string }, ['id'])))).toEqual([
      'breaking field-optional response 200 body field note',
    ]);
    expect(changes(response(object({ id: string, note: string }, ['id'])), before)).toEqual([
      'compatible field-required response 200 body field note',
    ]);
  });

  it('a response field made nullable (3.1 type array) is breaking; the reverse is compatible', () => {
    const nullable = response(object({ id: string, note: { type: ['string', 'null'] } }, ['id', 'note']));
    expect(changes(before, nullable)).toEqual(['breaking field-nullable response 200 body field note']);
    expect(changes(nullable, before)).toEqual(['compatible field-not-nullable response 200 body field note']);
  });

  it('an added response field is compatible', () => {
    expect(changes(before, response(object({ id: string, note: string, extra: string }, ['id', 'note'])))).toEqual([
      'compatible field-added response 200 body field extra',
    ]);
  });

  it('a widened response type is breaking, a narrowed one compatible', () => {
    const integer = response(object({ n: { type: 'integer' } }));
    const number = response(object({ n: { type: 'number' } }));
    expect(changes(integer, number)).toEqual(['breaking type-widened response 200 body field n']);
    expect(changes(number, integer)).toEqual(['compatible type-narrowed response 200 body field n']);
    expect(changes(integer, response(object({ n: string })))).toEqual(['breaking type-changed response 200 body field n']);
  });

  it('an enum value added to a response is breaking, removed is compatible', () => {
    const two = response(object({ state: { type: 'string', enum: ['A', 'B'] } }));
    const three = response(object({ state: { type: 'string', enum: ['A', 'B', 'C'] } }));
    expect(changes(two, three)).toEqual(['breaking enum-value-added response 200 body field state']);
    expect(changes(three, two)).toEqual(['compatible enum-value-removed response 200 body field state']);
  });

  it('a relaxed bound on a response is breaking, a tighter one compatible', () => {
    const bounded = response(object({ n: { type: 'integer', minimum: 0 } }));
    const unbounded = response(object({ n: { type: 'integer' } }));
    expect(changes(bounded, unbounded)).toEqual(['breaking constraint-widened response 200 body field n']);
    expect(changes(unbounded, bounded)).toEqual(['compatible constraint-narrowed response 200 body field n']);
  });
});

describe('request fields and parameters', () => {
  const before = request(object({ id: string, note: string }, ['id']));

  it('a request field newly required is breaking; no longer required is compatible', () => {
    const required = request(object({ id: string, note: string }, ['id', 'note']));
    expect(changes(before, required)).toEqual(['breaking field-required request body field note']);
    expect(changes(required, before)).toEqual(['compatible field-optional request body field note']);
  });

  it('an added required request field is breaking, an added optional one compatible', () => {
    expect(changes(before, request(object({ id: string, note: string, tag: string }, ['id', 'tag'])))).toEqual([
      'breaking field-added request body field tag',
    ]);
    expect(changes(before, request(object({ id: string, note: string, tag: string }, ['id'])))).toEqual([
      'compatible field-added request body field tag',
    ]);
  });

  it('a removed request field is breaking only where the object refuses unknown fields', () => {
    expect(changes(before, request(object({ id: string }, ['id'])))).toEqual(['compatible field-removed request body field note']);
    const closedBefore = request(object({ id: string, note: string }, ['id'], { additionalProperties: false }));
    const closedAfter = request(object({ id: string }, ['id'], { additionalProperties: false }));
    expect(changes(closedBefore, closedAfter)).toEqual(['breaking field-removed request body field note']);
  });

  it('a request object that starts refusing unknown fields is breaking', () => {
    expect(changes(before, request(object({ id: string, note: string }, ['id'], { additionalProperties: false })))).toEqual([
      'breaking object-closed request body',
    ]);
  });

  it('an enum value removed from a request is breaking, added is compatible', () => {
    const two = request(object({ route: { enum: ['onramp', 'offramp'] } }));
    const one = request(object({ route: { enum: ['onramp'] } }));
    expect(changes(two, one)).toEqual(['breaking enum-value-removed request body field route']);
    expect(changes(one, two)).toEqual(['compatible enum-value-added request body field route']);
  });

  it('a narrowed request type is breaking, a widened one compatible', () => {
    const either = request(object({ amount: { type: ['string', 'integer'] } }));
    const text = request(object({ amount: string }));
    expect(changes(either, text)).toEqual(['breaking type-narrowed request body field amount']);
    expect(changes(text, either)).toEqual(['compatible type-widened request body field amount']);
  });

  it('a request field that no longer accepts null is breaking', () => {
    const nullable = request(object({ note: { type: ['string', 'null'] } }));
    expect(changes(nullable, request(object({ note: string })))).toEqual(['breaking field-not-nullable request body field note']);
  });

  it('a tighter constraint on a request is breaking, a looser one compatible', () => {
    const loose = request(object({ key: { type: 'string', maxLength: 64 } }));
    const tight = request(object({ key: { type: 'string', maxLength: 32, pattern: '^[a-z]+$' } }));
    expect(changes(loose, tight)).toEqual([
      'breaking constraint-narrowed request body field key',
      'breaking constraint-narrowed request body field key',
    ]);
    expect(changes(tight, loose)).toEqual([
      'compatible constraint-widened request body field key',
      'compatible constraint-widened request body field key',
    ]);
  });

  const parameter = (name: string, required: boolean, schema: object = string) => ({ name, in: 'query', required, schema });

  it('a parameter newly required is breaking, made optional compatible', () => {
    const optional = { parameters: [parameter('slippage', false)] };
    const required = { parameters: [parameter('slippage', true)] };
    expect(changes(optional, required)).toEqual(['breaking parameter-required parameter query slippage']);
    expect(changes(required, optional)).toEqual(['compatible parameter-optional parameter query slippage']);
  });

  it('an added required parameter is breaking, an optional one compatible, a removed one breaking', () => {
    const none = { parameters: [] };
    expect(changes(none, { parameters: [parameter('refundAddress', true)] })).toEqual([
      'breaking parameter-added parameter query refundAddress',
    ]);
    expect(changes(none, { parameters: [parameter('refundAddress', false)] })).toEqual([
      'compatible parameter-added parameter query refundAddress',
    ]);
    expect(changes({ parameters: [parameter('ownerAddress', false)] }, none)).toEqual([
      'breaking parameter-removed parameter query ownerAddress',
    ]);
  });

  it("a parameter's schema is compared as a request", () => {
    const limit = (minimum: number) => ({ parameters: [parameter('limit', false, { type: 'integer', minimum })] });
    expect(changes(limit(1), limit(10))).toEqual(['breaking constraint-narrowed parameter query limit']);
  });

  it('renaming a path parameter changes nothing a client sends', () => {
    const byId = { path: '/v1/order/{id}', parameters: [{ name: 'id', in: 'path', required: true, schema: string }] };
    const byOrderId = { path: '/v1/order/{orderId}', parameters: [{ name: 'orderId', in: 'path', required: true, schema: string }] };
    expect(changes(byId, byOrderId)).toEqual([]);
  });
});

describe('operations, status codes, headers, security', () => {
  it('a removed operation is breaking, an added one compatible', () => {
    expect(changes({ path: '/v1/a' }, { path: '/v1/b' })).toEqual([
      'compatible operation-added operation',
      'breaking operation-removed operation',
    ]);
  });

  it('a removed status code is breaking, an added one compatible', () => {
    const one = { responses: { '200': string } };
    const two = { responses: { '200': string, '404': string } };
    expect(changes(two, one)).toEqual(['breaking status-removed response 404']);
    expect(changes(one, two)).toEqual(['compatible status-added response 404']);
  });

  it('a removed response header is breaking', () => {
    const withHeader = documentWith({ responses: { '429': string } });
    const withoutHeader = documentWith({ responses: { '429': string } });
    const responses = (withHeader.paths!['/v1/thing'] as { post: { responses: Record<string, Record<string, unknown>> } }).post.responses;
    responses['429']!.headers = { 'Retry-After': { schema: { type: 'integer' } } };
    const found = diffDocuments(withHeader, withoutHeader).operations.flatMap((operation) => operation.changes);
    expect(found.map((change) => `${change.severity} ${change.rule} ${change.location}`)).toEqual([
      'breaking header-removed response 429 header Retry-After',
    ]);
  });

  it('refusing calls without credentials is breaking', () => {
    const optional = { security: [{}, { apiKey: [] }] };
    const required = { security: [{ apiKey: [] }] };
    expect(changes(optional, required)).toEqual(['breaking security-removed security']);
    expect(changes(required, optional)).toEqual(['compatible security-added security']);
  });
});

describe('$ref, allOf, oneOf and anyOf', () => {
  it('follows $ref into components and reports the change where the operation uses it', () => {
    const withAmount = (required: string[]) => ({
      schemas: { Amount: object({ amount: string, usd: string }, required) },
      responses: { '200': object({ input: { $ref: '#/components/schemas/Amount' } }, ['input']) },
    });
    expect(changes(withAmount(['amount', 'usd']), withAmount(['amount']))).toEqual([
      'breaking field-optional response 200 body field input.usd',
    ]);
  });

  it('a field required by a new allOf member is a newly required request field', () => {
    const base = object({ refundAddress: string });
    expect(changes(request({ allOf: [base] }), request({ allOf: [base, { required: ['refundAddress'] }] }))).toEqual([
      'breaking field-required request body field refundAddress',
    ]);
  });

  const oneKey = (key: string, fields: object) => ({
    type: 'object',
    title: key,
    required: [key],
    additionalProperties: false,
    properties: { [key]: fields },
  });
  const quote = object({ amount: string }, ['amount']);

  it('a oneOf branch added to a response is breaking; removed from a request is breaking', () => {
    const two = { oneOf: [oneKey('onramp', quote), oneKey('offramp', quote)] };
    const three = { oneOf: [oneKey('onramp', quote), oneKey('offramp', quote), oneKey('tokenSwap', quote)] };
    expect(changes(response(two), response(three))).toEqual([
      'breaking variant-added response 200 body',
      'compatible field-added response 200 body field tokenSwap',
    ]);
    expect(changes(request(three), request(two))).toEqual([
      'breaking field-removed request body field tokenSwap',
      'breaking variant-removed request body',
    ]);
  });

  it('a field inside a oneOf branch is compared in place', () => {
    const before = {
      oneOf: [oneKey('onramp', quote), oneKey('offramp', object({ amount: string, ownerAddress: string }, ['amount', 'ownerAddress']))],
    };
    const after = { oneOf: [oneKey('onramp', quote), oneKey('offramp', object({ amount: string, ownerAddress: string }, ['amount']))] };
    expect(changes(response(before), response(after))).toEqual(['breaking field-optional response 200 body field offramp.ownerAddress']);
  });

  it('the values of an anyOf add up: a code added in a second branch is an enum value added', () => {
    const codes = { type: 'string', enum: ['ORDER_NOT_FOUND'] };
    const before = response(object({ code: codes }, ['code']));
    const after = response(object({ code: { anyOf: [codes, { type: 'string', enum: ['MISSING_REFUND_ADDRESS'] }] } }, ['code']));
    expect(changes(before, after)).toEqual(['breaking enum-value-added response 200 body field code']);
  });

  it('a oneOf with a null branch makes the field nullable', () => {
    const affiliate = object({ address: string }, ['address']);
    const before = response(object({ affiliate }));
    const after = response(object({ affiliate: { oneOf: [affiliate, { type: 'null' }] } }));
    expect(changes(before, after)).toEqual(['breaking field-nullable response 200 body field affiliate']);
  });

  it('a recursive schema is compared without looping', () => {
    const tree = (required: string[]) => ({
      schemas: { Node: object({ name: string, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } }, required) },
      responses: { '200': { $ref: '#/components/schemas/Node' } },
    });
    expect(changes(tree(['name']), tree([]))).toEqual(['breaking field-optional response 200 body field name']);
  });
});

describe('released versions', () => {
  it('a version whose tag says x-unreleased is not released; others are', () => {
    const before = { tags: [{ name: 'V5', 'x-unreleased': true }], path: '/v5/thing', ...response(object({ id: string }, ['id'])) };
    const after = { ...before, ...response(object({}, [])) };
    const [unreleased] = diffDocuments(documentWith(before), documentWith(after)).operations;
    expect(unreleased).toMatchObject({ version: 'v5', released: false });
    const [released] = diffDocuments(documentWith({ ...before, tags: [] }), documentWith(after)).operations;
    expect(released).toMatchObject({ version: 'v5', released: true });
  });
});
