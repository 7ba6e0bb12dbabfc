import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  createSchemaValidator,
  detailShapesByCode,
  detailsShapeProblem,
  jsonContent,
  loadBundle,
  readOperations,
} from '@swap-gateway/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';

const validator = createSchemaValidator(loadBundle('gateway'));
const operations = readOperations(loadBundle('gateway'));
/** A named example of an operation's request body (`part` 'request') or of the response of a status. */
const exampleOf = (operationId: string, part: string, name: string) => {
  const operation = operations.find((candidate) => candidate.operationId === operationId)!;
  return jsonContent(part === 'request' ? operation.requestBody : operation.responses[part])!.examples[name]!.value;
};

function expectValid(path: string, method: string, status: number, body: unknown) {
  const operation = operations.find((candidate) => candidate.path === path && candidate.method === method.toUpperCase())!;
  const { valid, errors } = validator.validate(jsonContent(operation.responses[String(status)])!.schemaPointer!, body);
  expect(valid, validator.describe(errors)).toBe(true);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return !isRunning(pid);
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const quoteExample = (name: string) => exampleOf('createOrderV4', 'request', name);

describe('startMock (static examples)', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('listens on a free loopback port and answers the documented examples', async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${mock.url}/v4/get-routes`);
    expect(response.status).toBe(200);
    expectValid('/v4/get-routes', 'get', 200, await response.json());
  });

  const patch = (body: unknown) => ({ ...json(body), method: 'PATCH' });
  const v3OfframpWithoutOwner = () => {
    const { offramp } = quoteExample('offramp') as { offramp: Record<string, unknown> };
    const { refundAddress: _refund, ownerAddress: _owner, ...fields } = offramp;
    return { offramp: fields };
  };
  it.each<[string, string, string, (base: string) => Promise<Response>, RegExp]>([
    ['a missing required query parameter', '/v4/get-quote', 'get', (base) => fetch(`${base}/v4/get-quote?srcChain=bitcoin`), /dstChain/],
    ['a limit below 1', '/v4/get-orders/{user_address}', 'get', (base) => fetch(`${base}/v4/get-orders/0xabc?limit=0`), /limit/],
    ['a body that is not a quote', '/v4/create-order', 'post', (base) => fetch(`${base}/v4/create-order`, json({ quote: {} })), /body/],
    [
      'a body that is not JSON',
      '/v4/create-order',
      'post',
      (base) => fetch(`${base}/v4/create-order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' }),
      /JSON/,
    ],
    [
      'a bare txid in register-tx',
      '/v4/register-tx',
      'patch',
      (base) => fetch(`${base}/v4/register-tx`, patch({ onramp: { order_id: 'o', bitcoin_txid: 'ab' } })),
      /bitcoin_tx/,
    ],
    [
      'a V3 offramp quote without ownerAddress',
      '/v3/create-order',
      'post',
      (base) => fetch(`${base}/v3/create-order`, json(v3OfframpWithoutOwner())),
      /ownerAddress/,
    ],
  ])('answers %s with the documented 400 INVALID_REQUEST body, not problem+json', async (_name, path, method, send, mentions) => {
    const response = await send(mock.url);
    const body = (await response.json()) as { code: string; error: string; details: { message: string } };
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.code).toBe('INVALID_REQUEST');
    expect(`${body.error} ${body.details.message}`).toMatch(mentions);
    expectValid(path, method, 400, body);
  });

  it('refuses an API key that is not 32 characters with the documented 401', async () => {
    const response = await fetch(`${mock.url}/v4/get-routes`, { headers: { authorization: 'Bearer too-short' } });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'INVALID_REQUEST', details: { expected: '32', actual: '9' } });
    expectValid('/v4/get-routes', 'get', 401, body);
    const accepted = await fetch(`${mock.url}/v4/get-routes`, { headers: { authorization: `Bearer ${'k'.repeat(32)}` } });
    expect(accepted.status).toBe(200);
  });

  it('answers an unknown path with 404 and an unknown method with 405, both with the error body', async () => {
    const unknownPath = await fetch(`${mock.url}/v2/get-quote`);
    expect(unknownPath.status).toBe(404);
    expect(await unknownPath.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    const unknownMethod = await fetch(`${mock.url}/v4/get-quote`, { method: 'DELETE' });
    expect(unknownMethod.status).toBe(405);
    expect(unknownMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(await unknownMethod.json()).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  // The statuses and codes of the server (packages/server/test/robustness.test.ts), both from the
  // document's malformedRequestAnswer: get-order documents no 400, so an id it cannot read is its 404.
  it.each<[string, string, string, number, string]>([
    ['/v4/get-order/%ZZ', '/v4/get-order/{id}', 'get', 404, 'ORDER_NOT_FOUND'],
    ['/v3/get-order/%C0%AF', '/v3/get-order/{id}', 'get', 404, 'ORDER_NOT_FOUND'],
    ['/v4/get-orders/0xabc?cursor=%ZZ', '/v4/get-orders/{user_address}', 'get', 400, 'INVALID_REQUEST'],
    ['/v4/get-quote?srcChain=bitcoin%', '/v4/get-quote', 'get', 400, 'INVALID_REQUEST'],
    ['/v4/get-max-spendable/%FF', '/v4/get-max-spendable/{address}', 'get', 400, 'INVALID_REQUEST'],
  ])(
    'answers %s, which it cannot percent-decode, itself with a documented status; Prism lives on',
    async (target, path, method, status, code) => {
      const pid = mock.prismPid;
      const response = await fetch(`${mock.url}${target}`);
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(body).toMatchObject({
        code,
        error: code === 'INVALID_REQUEST' ? expect.stringMatching(/percent-encoded/) : 'no order has this id, txid or hash',
      });
      expectValid(path, method, status, body);
      expect((await fetch(`${mock.url}/v4/get-routes`)).status).toBe(200);
      expect(mock.prismPid).toBe(pid);
    },
  );

  it('answers an empty path segment as the server does: 404, ORDER_NOT_FOUND on get-order', async () => {
    const order = await fetch(`${mock.url}/v4/get-order/`);
    expect(order.status).toBe(404);
    expect(await order.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    for (const path of ['/v4/get-orders/', '/v4/get-max-spendable/']) {
      const answer = await fetch(`${mock.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });

  it('reads a number in the query as the server does: a plain decimal, nothing else', async () => {
    const orders = (limit: string) => fetch(`${mock.url}/v4/get-orders/0xabc?limit=${encodeURIComponent(limit)}`);
    expect((await orders('20')).status).toBe(200);
    for (const limit of ['0x10', '1e2', ' 5', '5.', '']) {
      const answer = await orders(limit);
      expect(answer.status, JSON.stringify(limit)).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });

  it('answers CORS preflights itself, for the docs origin, file:// pages and any path, Prism never seeing them', async () => {
    const pid = mock.prismPid;
    for (const [origin, target] of [
      ['http://127.0.0.1:4000', '/v4/create-order'],
      ['null', '/v4/get-quote'],
      ['http://localhost:5173', '/v4/get-order/%ZZ'],
      ['http://127.0.0.1:4000', '/v9/nothing'],
    ]) {
      const response = await fetch(`${mock.url}${target}`, {
        method: 'OPTIONS',
        headers: {
          origin: origin!,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, prefer',
        },
      });
      expect(response.status, target).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), target).toBe(origin);
      expect(response.headers.get('access-control-allow-methods')?.split(','), target).toEqual(expect.arrayContaining(['POST', 'PATCH']));
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual([
        'authorization',
        'content-type',
        'prefer',
      ]);
    }
    expect(mock.prismPid).toBe(pid);
  });

  it("puts the CORS headers on Prism's answers and on its own errors, exposing Retry-After", async () => {
    const origin = 'http://127.0.0.1:4000';
    const routes = await fetch(`${mock.url}/v4/get-routes`, { headers: { origin } });
    expect(routes.status).toBe(200);
    expect(routes.headers.get('access-control-allow-origin')).toBe(origin);
    expect(routes.headers.get('access-control-expose-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['retry-after', 'allow', 'sl-violations']),
    );
    const limited = await fetch(`${mock.url}/v4/get-routes`, { headers: { origin: 'null', prefer: 'code=429' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe('null');
    for (const [target, status] of [
      ['/v4/get-quote?amount=1', 400],
      ['/v9/nothing', 404],
    ] as const) {
      const response = await fetch(`${mock.url}${target}`, { headers: { origin } });
      expect(response.status, target).toBe(status);
      expect(response.headers.get('access-control-allow-origin'), target).toBe(origin);
      expect(await response.json(), target).toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });

  it('answers get-routes, which reads no query, whatever its query holds', async () => {
    const response = await fetch(`${mock.url}/v4/get-routes?x=%ZZ`);
    expect(response.status).toBe(200);
    expectValid('/v4/get-routes', 'get', 200, await response.json());
  });

  it('answers HEAD on a GET operation like the GET, without the body', async () => {
    const head = await fetch(`${mock.url}/v4/get-routes`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await head.text()).toBe('');
    const notGet = await fetch(`${mock.url}/v4/create-order`, { method: 'HEAD' });
    expect(notGet.status).toBe(405);
    expect(notGet.headers.get('allow')).toBe('POST');
  });

  it('selects a route variant with Prefer: example=<name>', async () => {
    const query =
      'srcChain=bitcoin&dstChain=bob&recipient=0x71C7656EC7ab88b098defB751B7401B5f6d8976F&srcToken=0x0&dstToken=0x1&amount=1000';
    for (const variant of ['offramp', 'tokenSwap', 'tokenSwapSolana']) {
      const response = await fetch(`${mock.url}/v4/get-quote?${query}`, { headers: { prefer: `example=${variant}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual([variant.replace('Solana', '')]);
      expectValid('/v4/get-quote', 'get', 200, body);
    }
  });

  it('answers a request without Prefer with the example of its route', async () => {
    const offrampQuote = await fetch(
      `${mock.url}/v4/get-quote?srcChain=tron&dstChain=bitcoin&recipient=bc1q&srcToken=T&dstToken=0x0&amount=1`,
    ).then((response) => response.json() as Promise<Record<string, { srcChain: string }>>);
    expect(offrampQuote.offramp?.srcChain).toBe('tron');

    const order = await fetch(`${mock.url}/v4/create-order`, json(quoteExample('tokenSwapSolana')));
    expect(order.status).toBe(201);
    const body = (await order.json()) as { tokenSwap?: { tx: { type: string } } };
    expect(body.tokenSwap?.tx.type).toBe('solana');
    expectValid('/v4/create-order', 'post', 201, body);
  });

  // Last: it stops this file's static mock (a Prism start costs about 3 s of CPU).
  it('stop() ends the Prism process and closes the port', async () => {
    const prismPid = mock.prismPid;
    expect(isRunning(prismPid)).toBe(true);
    await mock.stop();
    expect(isRunning(prismPid)).toBe(false);
    await expect(fetch(`${mock.url}/v4/get-routes`)).rejects.toThrow();
    await mock.stop(); // a second stop is harmless
  });
});

// Two mocks of one seed for the whole block: a Prism start costs about 4 s of CPU.
describe('startMock (dynamic)', () => {
  let first: RunningMock;
  let second: RunningMock;
  beforeAll(async () => {
    [first, second] = await Promise.all([startMock({ dynamic: true, seed: 3 }), startMock({ dynamic: true, seed: 3 })]);
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  it('generates the same bodies for the same seed, valid against the schemas', async () => {
    const read = (mock: RunningMock) => fetch(`${mock.url}/v4/get-order/any-id`).then((response) => response.json());
    const [a, b] = [await read(first), await read(second)];
    expect(a).toEqual(b);
    expectValid('/v4/get-order/{id}', 'get', 200, a);
    const example = exampleOf('getOrderV4', '200', 'inProgress');
    expect(a).not.toEqual(example);
  });

  describe("error details and their code's shape", () => {
    const shapes = detailShapesByCode(loadBundle('gateway'));
    const query =
      'srcChain=bitcoin&dstChain=bob&recipient=0x71C7656EC7ab88b098defB751B7401B5f6d8976F&srcToken=0x0&dstToken=0x1&amount=1000';

    it('are the shape the document ties to the code, in the examples and in generated bodies', async () => {
      // The examples, by name (Prefer: dynamic=false): what the document holds them to.
      for (const name of ['INSUFFICIENT_AMOUNT', 'INSUFFICIENT_SWAP_AMOUNT', 'GAS_ESTIMATE_FAILED']) {
        const response = await fetch(`${first.url}/v4/get-quote?${query}`, {
          headers: { prefer: `code=400, example=${name}, dynamic=false` },
        });
        const body = (await response.json()) as { code: string };
        expect(body.code).toBe(name);
        expect(detailsShapeProblem(shapes, validator, body)).toBeUndefined();
      }
      // A generated body: Prism picks the code and the details apart, and with this seed picks a code
      // tied to a shape and details of another (every request of a seeded mock gets the same body).
      // The front gives it the details of the document's example of the code.
      const response = await fetch(`${first.url}/v4/get-quote?${query}`, { headers: { prefer: 'code=400' } });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; details?: unknown };
      expectValid('/v4/get-quote', 'get', 400, body);
      expect(shapes.has(body.code), body.code).toBe(true);
      expect(detailsShapeProblem(shapes, validator, body), JSON.stringify(body)).toBeUndefined();
    });
  });
});

// One mock for both, in this order: restarted once, then past its limit of one restart.
describe('a Prism process that dies', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ maxPrismRestarts: 1 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('is restarted, and the mock answers again', async () => {
    const first = mock.prismPid;
    process.kill(first, 'SIGKILL');
    expect(await waitUntilGone(first)).toBe(true);
    const response = await fetch(`${mock.url}/v4/get-routes`);
    expect(response.status).toBe(200);
    expect(mock.prismPid).not.toBe(first);
    expect(isRunning(mock.prismPid)).toBe(true);
  });

  it('past the restart limit, makes the mock report the failure and close its port rather than answer errors', async () => {
    process.kill(mock.prismPid, 'SIGKILL');
    const reason = await mock.failed;
    expect(reason.message).toMatch(/Prism exited \(signal SIGKILL/);
    await expect(fetch(`${mock.url}/v4/get-routes`)).rejects.toThrow();
  });
});

describe('the CLI (pnpm mock)', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('prints where it listens and leaves no Prism behind on %s', async (signal) => {
    const cli = spawn(process.execPath, [fileURLToPath(new URL('../dist/cli.js', import.meta.url)), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const banner = new Promise<RegExpExecArray>((resolve, reject) => {
      cli.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Prism (\d+),.*listening on (http:\/\/\S+)/.exec(output);
        if (found) resolve(found);
      });
      cli.once('exit', () => reject(new Error(`the CLI exited early:\n${output}`)));
    });
    try {
      const [, prismPid, url] = await banner;
      expect((await fetch(`${url}/v4/get-routes`)).status).toBe(200);
      const exited = once(cli, 'exit');
      cli.kill(signal);
      const [code] = await exited;
      expect(code).toBe(0);
      expect(await waitUntilGone(Number(prismPid))).toBe(true);
    } finally {
      // On a failed assertion, do not leave the CLI (and its Prism) running.
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGINT');
    }
  });
});
