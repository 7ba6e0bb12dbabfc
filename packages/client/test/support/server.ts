/**
 * A real HTTP server on 127.0.0.1 and a free port, answering what each test needs and recording
 * what it received.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (incoming, response) => {
    let body = '';
    for await (const chunk of incoming) body += chunk;
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const request = { method: incoming.method ?? '', pathname: url.pathname, query: url.searchParams, headers: incoming.headers, body };
    requests.push(request);
    await handler(request, response, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Ends the connection without an answer: the client sees a network failure. */
export function dropConnection(response: ServerResponse): void {
  response.socket?.destroy();
}

/** A URL on which nothing listens: a server is started, its port noted, then it is closed. */
export async function closedPortUrl(): Promise<string> {
  const server = await startTestServer(() => undefined);
  await server.close();
  return server.url;
}
