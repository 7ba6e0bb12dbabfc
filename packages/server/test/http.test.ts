/** The HTTP surface: routes from the document, validation, structured errors for every failure. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, readOperations } from '@swap-gateway/openapi';
import { fastifyUrl } from '../src/http/document.js';
import type { RunningServer } from '../src/index.js';
import { client, documentedExample, onrampParams, testServer, tronOfframpParams } from './helpers.js';

let server: RunningServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await testServer({
    config: { server: { host: '127.0.0.1', port: 0, bodyLimitBytes: 4096 } },
    adapters: {
      // A Bitcoin backend that fails with internals in its message: none of it may reach the client.
      bitcoin: {
        network: (await import('bitcoinjs-lib')).networks.bitcoin,
        feeRate: () => 12,
        utxos: async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:8332 password=hunter2');
        },
        broadcast: async () => 'unused',
      },
    },
  });
  api = client(server.url);
});
afterAll(() => server.close());

describe('routes come from the document', () => {
  it('registers every path and method of the bundle', () => {
    const operations = readOperations(loadBundle('gateway'));
    expect(operations).toHaveLength(10);
    for (const { method, path } of operations)
      expect(server.app.hasRoute({ method: method as 'GET', url: fastifyUrl(path) }), `${method} ${path}`).toBe(true);
  });

  it('answers the health check with each dependency', async () => {
    const health = await api.get('/health');
    expect(health).toMatchObject({
      status: 200,
      body: { status: 'ok', storage: 'pglite', dependencies: { database: 'ok', rateLimitStore: 'ok' } },
    });
  });
});

describe('structured errors', () => {
  it('answers an unknown path with 404 and an unknown method with 405 and Allow', async () => {
    const missing = await api.get('/v2/get-quote');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'INVALID_REQUEST', error: expect.stringContaining('/v2/get-quote') });
    const wrongMethod = await api.call('DELETE', '/v4/get-order/abc');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(wrongMethod.body).toMatchObject({ code: 'INVALID_REQUEST', details: { expected: 'GET, HEAD', actual: 'DELETE' } });
  });

  it('answers a missing or malformed parameter with INVALID_REQUEST', async () => {
    const missing = await api.get('/v4/get-quote?srcChain=bitcoin');
    expect(missing).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', error: 'query parameter dstChain is required' } });
    const badAmount = await api.quote(onrampParams({ amount: '1.5' }));
    expect(badAmount).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', error: expect.stringContaining('amount') } });
    const repeated = await api.get(`/v4/get-quote?${new URLSearchParams(onrampParams())}&amount=2`);
    expect(repeated.body.error).toBe('query parameter amount is given more than once');
  });

  it("reports a limit below its minimum with the minimum/actual details, the document's example word for word", async () => {
    const answer = await api.get('/v4/get-orders/0x71C7656EC7ab88b098defB751B7401B5f6d8976F?limit=0');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(documentedExample('getOrdersV4', '400', 'INVALID_REQUEST'));
  });

  it('refuses a body that is not a quote, not JSON, too large or not JSON-typed', async () => {
    // An empty body: each of the oneOf's members named, as the document's example is.
    const empty = await api.post('/v4/create-order', {});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(documentedExample('createOrderV4', '400', 'INVALID_REQUEST'));
    // A body with another key as well: no list of alternatives, which would hide the unknown key.
    expect(await api.post('/v4/create-order', { swap: {} })).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
    const withExtra = await api.post('/v4/create-order', { ...(await api.quote(onrampParams())).body, extra: 1 });
    expect(withExtra.body.error).toBe('the request body does not match the document: body must NOT have additional properties');
    const broken = await fetch(`${server.url}/v4/create-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"onramp":',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ code: 'INVALID_REQUEST', error: expect.stringContaining('not valid JSON') });
    // Valid JSON with a key that reaches a prototype: refused, as a key no schema has, saying so.
    for (const body of ['{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}']) {
      const answer = await fetch(`${server.url}/v4/create-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(answer.status, body).toBe(400);
      expect(await answer.json(), body).toMatchObject({ code: 'INVALID_REQUEST', error: expect.stringContaining('__proto__') });
    }
    const large = await api.post('/v4/create-order', { onramp: { padding: 'x'.repeat(5000) } });
    expect(large).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST', details: { max: '4096' } } });
    // A JSON quote sent as text/plain too: refused for its media type, not read as a string.
    for (const [type, body] of [
      ['application/xml', '<quote/>'],
      ['text/plain', JSON.stringify({ onramp: {} })],
    ]) {
      const answer = await fetch(`${server.url}/v4/create-order`, { method: 'POST', headers: { 'content-type': type! }, body });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        code: 'INVALID_REQUEST',
        error: 'the request body must be application/json',
        details: { expected: 'application/json', actual: type },
      });
    }
  });

  it('answers a V3 offramp quote without ownerAddress with MISSING_OWNER_ADDRESS', async () => {
    const quote = await api.quote(tronOfframpParams());
    const { ownerAddress, ...withoutOwner } = quote.body.offramp;
    expect(ownerAddress).toBe(tronOfframpParams().refundAddress);
    const answer = await api.post('/v3/create-order', { offramp: withoutOwner });
    expect(answer).toMatchObject({ status: 400, body: { code: 'MISSING_OWNER_ADDRESS', details: null } });
    // Not an offramp quote at all: the schema's INVALID_REQUEST, not a missing owner.
    const twoKeys = await api.post('/v3/create-order', { offramp: withoutOwner, onramp: withoutOwner });
    expect(twoKeys).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  it('answers a V4 quote without refundAddress with MISSING_REFUND_ADDRESS', async () => {
    const { refundAddress: _omitted, ...params } = onrampParams();
    const quote = await api.quote(params);
    expect(quote.body.onramp.refundAddress).toBeNull();
    const answer = await api.post('/v4/create-order', quote.body);
    expect(answer).toMatchObject({ status: 400, body: { code: 'MISSING_REFUND_ADDRESS' } });
  });

  it('fails the next requests on request in the sandbox, as an unexpected fault', async () => {
    expect((await api.post('/sandbox/faults', { count: 1 })).body).toEqual({ faults: 1 });
    const failed = await api.get('/v4/get-routes');
    expect(failed).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR', error: 'an unexpected error occurred', details: null } });
    expect(JSON.stringify(failed.body)).not.toContain('10.0.0.7');
    expect((await api.get('/v4/get-routes')).status).toBe(200);
  });

  it('turns an unexpected fault into INTERNAL_ERROR without internals', async () => {
    const answer = await api.get('/v4/get-max-spendable/bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: 'INTERNAL_ERROR', error: 'an unexpected error occurred', details: null });
    expect(JSON.stringify(answer.body)).not.toMatch(/ECONNREFUSED|hunter2|at /);
  });
});
