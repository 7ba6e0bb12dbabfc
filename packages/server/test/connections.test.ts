/**
 * How long a client may take and how many connections a process holds (`server` of the
 * configuration): a body sent a byte at a time gets 408 once `requestTimeoutMs` is over, a
 * connection that sends nothing is closed after `headersTimeoutMs`, an idle keep-alive connection
 * after `keepAliveTimeoutMs` (and the second Node adds), and connections beyond `maxConnections` are
 * closed as they come. Raw sockets, so that no HTTP client's own timeouts or pooling are in the way;
 * the timeouts are short here, the defaults are in the README.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { testServerPerSuite } from './helpers.js';

const settings = { headersTimeoutMs: 2000, requestTimeoutMs: 3000, keepAliveTimeoutMs: 300, maxConnections: 4 };
/** Longer than any timeout above: a connection still open then was not closed by them. */
const deadlineMs = 15_000;

interface Closed {
  /** Everything the server sent before it closed the connection. */
  data: string;
  elapsedMs: number;
}

/** A raw connection to the server, and when (and after what) the server closes it, or `open` at the deadline. */
function rawConnection(url: string): { socket: Socket; closed: Promise<Closed | 'open'> } {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  const socket = connect(Number(port), hostname);
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<Closed | 'open'>((resolve) => {
    const deadline = setTimeout(() => {
      socket.destroy();
      resolve('open');
    }, deadlineMs);
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve({ data, elapsedMs: Date.now() - started });
    });
  });
  return { socket, closed };
}

const responses = (data: string) => [...data.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));
const lastBody = (data: string) => JSON.parse(data.slice(data.lastIndexOf('\r\n\r\n') + 4));

describe('timeouts and the connection cap', () => {
  const warnings: string[] = [];
  const { server } = testServerPerSuite({
    config: { server: settings },
    logger: { level: 'warn', stream: { write: (line: string) => void warnings.push(JSON.parse(line).msg) } },
  });

  it('answers a body that trickles in 408 with the error body once requestTimeoutMs is over', async () => {
    const { socket, closed } = rawConnection(server().url);
    socket.write('POST /v4/create-order HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    // A byte every 200 ms keeps the connection busy: no idle timeout would close it.
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
    const result = await closed;
    clearInterval(trickle);
    expect(result).not.toBe('open');
    const { data, elapsedMs } = result as Closed;
    expect(responses(data)).toEqual([408]);
    expect(lastBody(data)).toEqual({ code: 'INVALID_REQUEST', error: 'the request was not received in time', details: null });
    expect(elapsedMs).toBeGreaterThanOrEqual(settings.requestTimeoutMs);
  });

  it('closes a connection that sends nothing after headersTimeoutMs, an idle keep-alive one after keepAliveTimeoutMs', async () => {
    const silent = rawConnection(server().url);
    const keptAlive = rawConnection(server().url);
    keptAlive.socket.write('GET /v4/get-routes HTTP/1.1\r\nHost: gateway\r\n\r\n');
    const [silentClosed, keptAliveClosed] = await Promise.all([silent.closed, keptAlive.closed]);
    expect(silentClosed).not.toBe('open');
    expect(responses((silentClosed as Closed).data)).toEqual([408]);
    expect((silentClosed as Closed).elapsedMs).toBeGreaterThanOrEqual(settings.headersTimeoutMs);
    expect(keptAliveClosed).not.toBe('open');
    // Its one answer, then closed: the keep-alive timeout and Node's second, well before the headers timeout.
    expect(responses((keptAliveClosed as Closed).data)).toEqual([200]);
    expect((keptAliveClosed as Closed).elapsedMs).toBeLessThan(settings.headersTimeoutMs);
  });

  it('closes connections beyond maxConnections as they come, and serves again once idle ones are closed', async () => {
    const held = Array.from({ length: settings.maxConnections }, () => rawConnection(server().url));
    const app = server().app;
    const connections = () =>
      new Promise<number>((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    while ((await connections()) < settings.maxConnections) await new Promise((resolve) => setImmediate(resolve));
    const refused = await rawConnection(server().url).closed;
    expect(refused).not.toBe('open');
    expect(refused).toMatchObject({ data: '' });
    expect((refused as Closed).elapsedMs).toBeLessThan(settings.headersTimeoutMs);
    expect(warnings).toContain(`connections refused: this process holds server.maxConnections (${settings.maxConnections})`);
    // The held connections send nothing: the headers timeout closes them, and the process serves again.
    for (const connection of held) expect(responses(((await connection.closed) as Closed).data)).toEqual([408]);
    expect((await fetch(`${server().url}/health`)).status).toBe(200);
  });
});

describe('the timeouts in the configuration', () => {
  it('refuses a headers timeout above the request timeout, which Node would throw on', () => {
    expect(() => loadConfig({ env: {}, overrides: { server: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } } })).toThrow(
      /server\.headersTimeoutMs must not be above server\.requestTimeoutMs/,
    );
    expect(() => loadConfig({ env: {}, overrides: { server: { maxConnections: 0 } } })).toThrow(
      /server\.maxConnections must be a whole number from 1/,
    );
  });
});
