/**
 * The sandbox controls act on every user (settle anyone's order, move the clock, make requests
 * fail), so they answer only the operator: callers on this machine when no operator key is
 * configured, else callers with the key; never a page of an origin CORS does not allow. A sandbox
 * listening beyond this machine says so at start-up. The API itself answers everyone as before.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { client, testServerPerSuite } from './helpers.js';

const outsider = '203.0.113.7';

/** A logger stream the tests read: one JSON object a line (pino's). */
function recordedLog(level = 'warn') {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  return { lines, logger: { level, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } };
}
const sandboxWarnings = (lines: Array<{ msg: string }>) => lines.filter((line) => /sandbox controls are on/.test(line.msg));

describe('sandbox controls without an operator key, on 127.0.0.1', () => {
  const log = recordedLog('info');
  const { server, api } = testServerPerSuite({ logger: log.logger });

  it('logs each answered request in one line', async () => {
    const url = `/v4/get-order/${randomBytes(4).toString('hex')}`;
    expect((await api.get(url)).status).toBe(404);
    const lines = log.lines.filter((line) => typeof line.url === 'string' && line.url === url);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        reqId: expect.any(String),
        method: 'GET',
        statusCode: 404,
        remoteAddress: '127.0.0.1',
        responseTimeMs: expect.any(Number),
      }),
    ]);
  });

  it('answer a caller on this machine, and say nothing at start-up', async () => {
    expect((await api.get('/sandbox/liquidity')).status).toBe(200);
    expect(sandboxWarnings(log.lines)).toEqual([]);
  });

  it('refuse a caller from elsewhere, or one a proxy forwarded, with 403; the API answers both', async () => {
    const outside = await server().app.inject({ method: 'POST', url: '/sandbox/faults', remoteAddress: outsider, payload: { count: 5 } });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({
      code: 'INVALID_REQUEST',
      error: 'the sandbox controls answer only callers on this machine, or with the operator key (sandboxOperatorKey)',
      details: { message: 'sandboxOperatorKey' },
    });
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const forwarded = await client(server().url, { [header]: header === 'forwarded' ? `for=${outsider}` : outsider }).post(
        '/sandbox/faults',
        {
          count: 5,
        },
      );
      expect(forwarded, header).toMatchObject({ status: 403, body: { code: 'INVALID_REQUEST' } });
    }
    // No fault was set, and the guard is the controls' alone: the API answers the outsider.
    expect((await api.get('/v4/get-routes')).status).toBe(200);
    expect((await server().app.inject({ method: 'GET', url: '/v4/get-routes', remoteAddress: outsider })).statusCode).toBe(200);
  });

  it('refuse a page of an origin CORS does not allow, also on a POST a browser sends without asking first', async () => {
    // A sandboxed iframe (Origin: null) or any site: a bodyless POST needs no preflight.
    for (const origin of ['null', 'https://attacker.example']) {
      const response = await fetch(`${server().url}/sandbox/faults`, { method: 'POST', headers: { origin } });
      expect(response.status, origin).toBe(403);
      expect(await response.json(), origin).toMatchObject({ code: 'INVALID_REQUEST', details: { actual: origin } });
    }
    expect((await api.get('/v4/get-routes')).status).toBe(200);
    // A page CORS allows (the built-in configuration: any localhost port) may use them.
    expect((await fetch(`${server().url}/sandbox/liquidity`, { headers: { origin: 'http://localhost:5173' } })).status).toBe(200);
  });
});

describe('sandbox controls with an operator key, listening on every interface', () => {
  const operatorKey = randomBytes(24).toString('hex');
  const log = recordedLog();
  const { server } = testServerPerSuite({ host: '0.0.0.0', config: { sandboxOperatorKey: operatorKey }, logger: log.logger });
  const liquidity = (headers: Record<string, string>, remoteAddress?: string) =>
    server().app.inject({ method: 'GET', url: '/sandbox/liquidity', headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('warn at start-up', () => {
    expect(sandboxWarnings(log.lines)).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'the sandbox controls are on and the server listens on 0.0.0.0, beyond this machine: a caller with the operator key can settle any order, move the clock and make requests fail; a deployment sets "sandbox": false',
      }),
    ]);
  });

  it('need the key in X-Sandbox-Key, on this machine too, and answer it from anywhere', async () => {
    for (const headers of [
      {},
      { 'x-sandbox-key': 'wrong' },
      { 'x-sandbox-key': `${operatorKey}x` },
      { authorization: `Bearer ${operatorKey}` },
    ] as Record<string, string>[]) {
      const refused = await liquidity(headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(401);
      expect(refused.json()).toEqual({
        code: 'INVALID_REQUEST',
        error: 'the sandbox controls need the operator key in X-Sandbox-Key',
        details: { message: 'X-Sandbox-Key' },
      });
    }
    expect((await liquidity({ 'x-sandbox-key': operatorKey })).statusCode).toBe(200);
    expect((await liquidity({ 'x-sandbox-key': operatorKey }, outsider)).statusCode).toBe(200);
  });
});

describe('the operator key in the configuration', () => {
  it('is read from GATEWAY_SANDBOX_OPERATOR_KEY and must be at least 32 characters', () => {
    const key = 'a'.repeat(32);
    expect(loadConfig({ env: { GATEWAY_SANDBOX_OPERATOR_KEY: key } }).sandboxOperatorKey).toBe(key);
    expect(() => loadConfig({ env: { GATEWAY_SANDBOX_OPERATOR_KEY: 'short' } })).toThrow(
      /sandboxOperatorKey must be at least 32 characters/,
    );
  });
});
