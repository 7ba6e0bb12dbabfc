/**
 * The suite's only way to talk to a target. Every response goes through the contract check
 * (checker.ts) before a test sees it, and each conforming (operation, status) is recorded for the
 * coverage table.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { documentedResponse, matchOperation, targetAsPath, type Operation } from '@swap-gateway/openapi';
import { contractProblems } from './checker.js';
import { recordExercised } from './coverage.js';
import { operations } from './document.js';

export interface GatewayRequest {
  method?: string;
  /** A concrete path, e.g. `/v4/get-order/abc`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Appended to the query as it is, unencoded (for malformed percent-encoding and repeated names). */
  rawQuery?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with `contentType` (default application/json), for bodies that are not JSON. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Overrides the target's API key for this request; null sends none. */
  apiKey?: string | null;
  /** The request asks for a 5xx on purpose (the mock's `Prefer: code=500`, or a fault injected through the sandbox). */
  serverErrorRequested?: boolean;
  /**
   * Local address to send from, e.g. `127.0.0.2`: another loopback address is another client to a
   * target that counts its rate limit per address.
   */
  from?: string;
}

export interface GatewayResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  operation: Operation | undefined;
}

export interface Gateway {
  url: string;
  send<Body = unknown>(request: GatewayRequest): Promise<GatewayResponse<Body>>;
  /**
   * Sends `head` (a request line and headers, `\r\n`-separated, without the blank line) as it is,
   * bytes an HTTP client refuses to write (broken headers, a NUL character), on a connection of its
   * own; the answer is checked as `send`'s are, against the operation the request line names.
   */
  sendRaw<Body = unknown>(head: string): Promise<GatewayResponse<Body>>;
}

const requestTimeoutMs = 20_000;

export class ContractViolation extends Error {}

export interface GatewayOptions {
  apiKey?: string | undefined;
  /** Hold every error body to `code`, `error` and `details` (the target's `sends full error bodies`). */
  fullErrorBodies?: boolean;
}

/** The suite's HTTP client of one target: every answer is checked against the document before a test sees it. */
export function connectTarget(url: string, { apiKey, fullErrorBodies = false }: GatewayOptions = {}): Gateway {
  return {
    url,
    async send<Body>(request: GatewayRequest): Promise<GatewayResponse<Body>> {
      const method = (request.method ?? 'GET').toUpperCase();
      const target = new URL(`${url}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value !== undefined) target.searchParams.set(name, String(value));
      }
      if (request.rawQuery !== undefined) target.search = [target.search.slice(1), request.rawQuery].filter(Boolean).join('&');
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      const key = request.apiKey === undefined ? apiKey : request.apiKey;
      if (key !== null && key !== undefined) headers.authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (request.rawBody !== undefined || request.body !== undefined) {
        body = request.rawBody ?? JSON.stringify(request.body);
        headers['content-type'] = request.contentType ?? 'application/json';
      }

      const response = await exchange(target, { method, headers, body, localAddress: request.from });
      return checked<Body>(method, target, response, { serverErrorRequested: request.serverErrorRequested, fullErrorBodies });
    },
    async sendRaw<Body>(head: string): Promise<GatewayResponse<Body>> {
      const [, method = '', path = '/'] = /^(\S+) (\S+)/.exec(head) ?? [];
      const target = new URL(`${url}${targetAsPath(method, path)}`);
      return checked<Body>(method, target, await exchangeRaw(target, `${head}\r\n\r\n`), { fullErrorBodies });
    },
  };
}

/** An answer held to the contract of the operation the request names, recorded for coverage, its JSON body parsed. */
function checked<Body>(
  method: string,
  target: URL,
  response: Exchanged,
  options: { serverErrorRequested?: boolean | undefined; fullErrorBodies: boolean },
): GatewayResponse<Body> {
  const { text } = response;
  // HEAD stands for the GET of the same path (HTTP servers answer it as that GET without the body).
  const head = method === 'HEAD';
  // An empty path segment names no operation: the answer is held to 404/405 with the error body.
  const match = matchOperation(operations, method, target.pathname);
  const operation =
    match.kind === 'operation' && Object.values(match.pathParameters).every((value) => value !== '') ? match.operation : undefined;
  const problems = contractProblems(operation, { status: response.status, headers: response.headers, text }, { ...options, head });
  if (problems.length) {
    throw new ContractViolation(
      [
        `${method} ${target.pathname}${target.search} broke the contract:`,
        ...problems.map((problem) => `  - ${problem}`),
        `  response ${response.status}: ${text.slice(0, 800)}`,
      ].join('\n'),
    );
  }
  if (operation && !head)
    recordExercised({ operationId: operation.operationId, status: documentedResponse(operation, response.status)!.status });
  const parsed = /json/.test(response.headers.get('content-type') ?? '') && text ? (JSON.parse(text) as Body) : (text as Body);
  return { status: response.status, headers: response.headers, body: parsed, operation };
}

interface Exchanged {
  status: number;
  headers: Headers;
  text: string;
}

// Kept-alive connections, one pool per local address, so that bursts stay cheap.
const agents = new Map<string, HttpAgent>();
const agentFor = (secure: boolean, localAddress = '') => {
  const name = `${secure}:${localAddress}`;
  const agent =
    agents.get(name) ??
    (secure
      ? new HttpsAgent({ keepAlive: true, localAddress: localAddress || undefined })
      : new HttpAgent({ keepAlive: true, localAddress: localAddress || undefined }));
  agents.set(name, agent);
  return agent;
};

/** One HTTP exchange with node:http (fetch cannot choose the local address), bounded in time. */
function exchange(
  url: URL,
  options: { method: string; headers: Record<string, string>; body: string | undefined; localAddress: string | undefined },
): Promise<Exchanged> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const outgoing = (secure ? httpsRequest : httpRequest)(
      url,
      { method: options.method, headers: options.headers, agent: agentFor(secure, options.localAddress), timeout: requestTimeoutMs },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            for (const item of [value ?? []].flat()) headers.append(name, item);
          }
          resolve({ status: incoming.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${requestTimeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/**
 * Bytes written as they are on a connection of their own, and the answer read to the end of the
 * connection (the target closes it after refusing such a request): status line, headers, and the
 * body as its Content-Length gives it.
 */
function exchangeRaw(url: URL, bytes: string): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const socket =
      url.protocol === 'https:'
        ? connectTls({ host: url.hostname, port, servername: url.hostname })
        : connectTcp({ host: url.hostname, port });
    const chunks: Buffer[] = [];
    socket.setTimeout(requestTimeoutMs, () => socket.destroy(new Error(`no answer within ${requestTimeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = raw.slice(0, split < 0 ? raw.length : split).split('\r\n');
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const body = Buffer.from(split < 0 ? '' : raw.slice(split + 4), 'latin1');
      const length = headers.has('content-length') ? Number(headers.get('content-length')) : body.length;
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        text: body.subarray(0, length).toString('utf8'),
      });
    });
    socket.write(bytes, 'latin1');
  });
}
