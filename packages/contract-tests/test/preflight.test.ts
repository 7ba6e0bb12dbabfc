/**
 * The check that ends a run at once must be able to fail, and to pass: a closed port, a web server
 * that is not the gateway, a refused key and the run's own target, each on loopback (no target of
 * the run involved except the last).
 */
import { createServer, type Server } from 'node:http';
import { freePort } from '@swap-gateway/test-support/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetProblem } from '../src/preflight.js';
import { target } from '../src/suite.js';

let website: Server;
let websiteUrl: string;

beforeAll(async () => {
  website = createServer((request, response) => {
    if (request.headers.authorization === 'Bearer refused')
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"INVALID_REQUEST"}');
    else response.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
  websiteUrl = `http://127.0.0.1:${(website.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => website.close(() => resolve())));

const staging = (url: string, apiKey?: string) => ({ name: 'staging' as const, url, apiKey, capabilities: [] });

describe('the preflight of a run', () => {
  it('names a target nobody listens at', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await targetProblem(staging(closed))).toBe(
      `the staging target at ${closed} is unreachable: connect ECONNREFUSED ${closed.slice('http://'.length)}`,
    );
  });

  it('names a target that answers, but not as the gateway', async () => {
    expect(await targetProblem(staging(websiteUrl))).toMatch(
      /does not answer as the gateway: GET \/v4\/get-routes answered 404 text\/html/,
    );
  });

  it('names a refused key', async () => {
    expect(await targetProblem(staging(websiteUrl, 'refused'))).toMatch(/refused the API key \(401\)/);
  });

  it("finds nothing wrong with the run's own target", async () => {
    expect(await targetProblem(target)).toBeUndefined();
  });
});
