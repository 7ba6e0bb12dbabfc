/**
 * Requests Fastify or Node refuse before a route runs, and inputs the database cannot hold: each
 * gets the documented error body with a status the document gives the operation, never a 500, a
 * framework body or an undocumented status.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { client, onrampParams, testServer } from './helpers.js';

/** A request exactly as written (fetch would normalise the path). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; text: string; body: any; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode!, text, body: parsed, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The structured error body and nothing of Fastify's or Node's own. */
function expectErrorBody(answer: { body: any; text: string }, code: string) {
  expect(answer.body, answer.text).toEqual({ code, error: expect.any(String), details: answer.body?.details ?? null });
  expect(answer.text).not.toMatch(/FST_|statusCode|stack|10\.0\.0\.7/);
}

let server: RunningServer;
beforeAll(async () => {
  server = await testServer();
});
afterAll(() => server.close());

describe('NUL bytes (PostgreSQL text cannot hold them)', () => {
  it('get-order answers 404 ORDER_NOT_FOUND, V4 and V3', async () => {
    for (const path of ['/v4/get-order/%00', '/v3/get-order/%00', '/v4/get-order/abc%00def']) {
      const answer = await raw(server.url, 'GET', path);
      expect(answer.status, path).toBe(404);
      expectErrorBody(answer, 'ORDER_NOT_FOUND');
    }
  });

  it('get-orders, get-quote and register-tx answer 400 INVALID_REQUEST', async () => {
    for (const path of [
      '/v4/get-orders/%00',
      '/v3/get-orders/%00',
      `/v4/get-quote?${new URLSearchParams(onrampParams({ recipient: '\u0000' }))}`,
    ]) {
      const answer = await raw(server.url, 'GET', path);
      expect(answer.status, path).toBe(400);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
    const registered = await raw(
      server.url,
      'PATCH',
      '/v4/register-tx',
      {},
      JSON.stringify({ onramp: { order_id: '\u0000', bitcoin_tx_hex: 'aa' } }),
    );
    expect(registered.status).toBe(400);
    expectErrorBody(registered, 'INVALID_REQUEST');
  });

  it('sandbox order controls answer 404 ORDER_NOT_FOUND for the id and 400 for a body string', async () => {
    for (const path of ['/sandbox/orders/%00/outcome', '/sandbox/orders/%00/source-sent']) {
      const answer = await raw(server.url, 'POST', path, {}, JSON.stringify({ outcome: 'success' }));
      expect(answer.status, path).toBe(404);
      expectErrorBody(answer, 'ORDER_NOT_FOUND');
    }
    const reason = await raw(
      server.url,
      'POST',
      '/sandbox/orders/8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12/outcome',
      {},
      JSON.stringify({ outcome: 'failed', reason: 'a\u0000b' }),
    );
    expect(reason.status).toBe(400);
    expectErrorBody(reason, 'INVALID_REQUEST');
  });
});

describe('sandbox control input', () => {
  it('POST /sandbox/advance refuses a jump the clock cannot take, and leaves the clock where it was', async () => {
    const before = server.services.clock.now();
    for (const seconds of [1e300, Number.MAX_SAFE_INTEGER, 1e12]) {
      const answer = await raw(server.url, 'POST', '/sandbox/advance', {}, JSON.stringify({ seconds }));
      expect(answer.status, String(seconds)).toBe(400);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
    expect(server.services.clock.now() - before).toBeLessThan(60_000);
    expect((await client(server.url).quote(onrampParams())).status).toBe(200);
    const year = await raw(server.url, 'POST', '/sandbox/advance', {}, JSON.stringify({ seconds: 365 * 86_400 }));
    expect(year.status).toBe(200);
    expect((await client(server.url).quote(onrampParams())).status).toBe(200);
  });

  it('POST /sandbox/faults refuses a body that is not an object and arms nothing', async () => {
    for (const body of ['"x"', '[]', '3', 'null']) {
      const answer = await raw(server.url, 'POST', '/sandbox/faults', {}, body);
      expect(answer.status, body).toBe(400);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
    expect((await client(server.url).get('/v4/get-routes')).status).toBe(200);
  });
});

describe('requests refused before routing', () => {
  it('bad percent-encoding in a path: 404 on get-order (no 400 documented), 400 where documented', async () => {
    const order = await raw(server.url, 'GET', '/v4/get-order/%ZZ');
    expect(order.status).toBe(404);
    expectErrorBody(order, 'ORDER_NOT_FOUND');
    for (const path of ['/v4/get-orders/%ZZ', '/v4/get-max-spendable/%E0%A4%A']) {
      const answer = await raw(server.url, 'GET', path);
      expect(answer.status, path).toBe(400);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
  });

  it('a path parameter over 100 characters is checked like any other value', async () => {
    const long = 'a'.repeat(5000);
    const order = await raw(server.url, 'GET', `/v4/get-order/${long}`);
    expect(order.status).toBe(404);
    expectErrorBody(order, 'ORDER_NOT_FOUND');
    const spendable = await raw(server.url, 'GET', `/v4/get-max-spendable/${long}`);
    expect(spendable.status).toBe(400);
    expectErrorBody(spendable, 'INVALID_REQUEST');
  });

  it('an empty path segment names no operation: 404, ORDER_NOT_FOUND on get-order', async () => {
    const order = await raw(server.url, 'GET', '/v4/get-order/');
    expect(order.status).toBe(404);
    expectErrorBody(order, 'ORDER_NOT_FOUND');
    for (const path of ['/v4/get-orders/', '/v4/get-max-spendable/', '/v4/%ZZ']) {
      const answer = await raw(server.url, 'GET', path);
      expect(answer.status, path).toBe(404);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
  });

  it('an empty query value is checked like any value', async () => {
    for (const query of ['limit=', 'cursor=']) {
      const answer = await raw(server.url, 'GET', `/v4/get-orders/0x71C7656EC7ab88b098defB751B7401B5f6d8976F?${query}`);
      expect(answer.status, query).toBe(400);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
  });

  it('a number in the query is a plain decimal, nothing else (the mock reads it alike)', async () => {
    const orders = (limit: string) =>
      raw(server.url, 'GET', `/v4/get-orders/0x71C7656EC7ab88b098defB751B7401B5f6d8976F?limit=${encodeURIComponent(limit)}`);
    expect((await orders('20')).status).toBe(200);
    for (const limit of ['0x10', '1e2', ' 5', '5.']) {
      const answer = await orders(limit);
      expect(answer.status, JSON.stringify(limit)).toBe(400);
      expectErrorBody(answer, 'INVALID_REQUEST');
    }
  });

  it('a 20,000-digit amount reaches validation: 400 with the amount bound', async () => {
    const answer = await raw(server.url, 'GET', `/v4/get-quote?${new URLSearchParams(onrampParams({ amount: '9'.repeat(20_000) }))}`);
    expect(answer.status).toBe(400);
    expectErrorBody(answer, 'INVALID_REQUEST');
  });

  it("headers or a URL beyond what the server reads: the error body with the operation's documented status", async () => {
    const huge = { 'x-padding': 'p'.repeat(200_000) };
    const quote = await raw(server.url, 'GET', `/v4/get-quote?${new URLSearchParams(onrampParams())}`, huge);
    expect(quote.status).toBe(400);
    expectErrorBody(quote, 'INVALID_REQUEST');
    const order = await raw(server.url, 'GET', '/v4/get-order/8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12', huge);
    expect(order.status).toBe(404);
    expectErrorBody(order, 'ORDER_NOT_FOUND');
    const longUrl = await raw(server.url, 'GET', `/v4/get-order/${'a'.repeat(200_000)}`);
    expect(longUrl.status).toBe(404);
    expectErrorBody(longUrl, 'ORDER_NOT_FOUND');
    // get-routes takes no input but its headers, and documents no 400 or 404: the API key they
    // carry cannot be read, which is the documented 401.
    const routes = await raw(server.url, 'GET', '/v4/get-routes', huge);
    expect(routes.status).toBe(401);
    expectErrorBody(routes, 'INVALID_REQUEST');
    // The server still answers afterwards.
    expect((await client(server.url).get('/v4/get-routes')).status).toBe(200);
  });

  it('get-routes ignores a malformed query string: it takes no parameters', async () => {
    const answer = await raw(server.url, 'GET', '/v4/get-routes?%ZZ=%ZZ');
    expect(answer.status).toBe(200);
  });
});

describe('HEAD on a GET operation', () => {
  it('answers as GET does, without a body', async () => {
    for (const path of ['/v4/get-routes', '/v4/get-order/8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12', '/v4/get-order/%ZZ']) {
      const get = await raw(server.url, 'GET', path);
      const head = await raw(server.url, 'HEAD', path);
      expect(head.status, path).toBe(get.status);
      expect(head.text).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
    }
  });
});
