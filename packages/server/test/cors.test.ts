/**
 * Browsers on the docs' origin and on any local port may call the gateway (CORS); pages opened from
 * disk (`file://`, `Origin: null`, as any page in a sandboxed iframe) only when the configuration says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { onrampParams, sharedStorePerSuite, testServer } from './helpers.js';

const docsOrigin = 'http://127.0.0.1:4000';

// The servers share one store: CORS and the rate limit live in each server's process, and the
// tests ask for quotes and routes only.
const store = sharedStorePerSuite();

const preflight = (url: string, origin: string, method = 'POST') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });

const exposed = (response: Response) => (response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);

describe('CORS with the sandbox configuration', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await testServer({ database: store() });
  });
  afterAll(() => server.close());

  it('answers a preflight for create-order from the docs origin, allowing Authorization and Content-Type', async () => {
    const response = await preflight(`${server.url}/v4/create-order`, docsOrigin);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(docsOrigin);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const registerTx = await preflight(`${server.url}/v4/register-tx`, docsOrigin, 'PATCH');
    expect(registerTx.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['authorization', 'content-type']),
    );
    expect(response.headers.get('vary')).toMatch(/origin/i);
  });

  it('allows any localhost port, not other sites nor pages opened from disk or in a sandboxed iframe (Origin: null)', async () => {
    for (const origin of ['http://localhost:5173', 'http://[::1]:8000']) {
      const response = await preflight(`${server.url}/v4/get-quote`, origin, 'GET');
      expect(response.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
    for (const origin of ['https://attacker.example', 'http://localhost.attacker.example', 'file://', 'null']) {
      const response = await preflight(`${server.url}/v4/get-quote`, origin, 'GET');
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('answers preflights on paths the 404 and 405 handling would refuse', async () => {
    for (const path of ['/v9/nothing-here', '/v4/get-routes']) {
      const response = await preflight(`${server.url}${path}`, docsOrigin);
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), path).toBe(docsOrigin);
    }
    const notFound = await fetch(`${server.url}/v9/nothing-here`, { headers: { origin: docsOrigin } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('access-control-allow-origin')).toBe(docsOrigin);
    expect(await notFound.json()).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('hands an OPTIONS request that is no allowed preflight to the 405 handling', async () => {
    const response = await fetch(`${server.url}/v4/get-routes`, { method: 'OPTIONS' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ code: 'INVALID_REQUEST' });
  });
});

describe('CORS and the rate limit, with pages opened from disk allowed', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await testServer({
      database: store(),
      config: { rateLimits: { windowSeconds: 60, anonymous: 3, apiKey: 100 } },
      // How the README turns them on for the docs' console opened from disk.
      env: { GATEWAY_CORS_FILE_ORIGIN: '1' },
    });
  });
  afterAll(() => server.close());

  it('adds the headers to a real cross-origin request and its documented errors, exposing Retry-After; the limit leaves preflights alone', async () => {
    const quote = await fetch(`${server.url}/v4/get-quote?${new URLSearchParams(onrampParams())}`, { headers: { origin: 'null' } });
    expect(quote.status).toBe(200);
    expect(quote.headers.get('access-control-allow-origin')).toBe('null');
    expect(exposed(quote)).toEqual(expect.arrayContaining(['retry-after', 'allow']));

    const bad = await fetch(`${server.url}/v4/get-quote?${new URLSearchParams(onrampParams({ amount: 'ten' }))}`, {
      headers: { origin: docsOrigin },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe(docsOrigin);
    expect(await bad.json()).toMatchObject({ code: 'INVALID_REQUEST' });

    await fetch(`${server.url}/v4/get-routes`, { headers: { origin: docsOrigin } });
    const limited = await fetch(`${server.url}/v4/get-routes`, { headers: { origin: docsOrigin } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe(docsOrigin);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(exposed(limited)).toContain('retry-after');

    const afterLimit = await preflight(`${server.url}/v4/get-routes`, docsOrigin, 'GET');
    expect(afterLimit.status).toBe(204);
    expect(afterLimit.headers.get('access-control-allow-origin')).toBe(docsOrigin);
  });
});

describe('CORS as configured', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await testServer({
      database: store(),
      config: { cors: { origins: ['https://docs.example.com'], localhost: false, fileOrigin: false } },
    });
  });
  afterAll(() => server.close());

  it('allows exactly the listed origins when localhost and file:// pages are turned off', async () => {
    const listed = await fetch(`${server.url}/v4/get-routes`, { headers: { origin: 'https://docs.example.com' } });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://docs.example.com');
    for (const origin of [docsOrigin, 'null']) {
      const response = await preflight(`${server.url}/v4/get-routes`, origin, 'GET');
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });
});
