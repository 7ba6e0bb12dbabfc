/**
 * The answer to bytes Node's HTTP parser refuses before any handler sees them (headers larger than
 * the server reads, broken HTTP, a NUL character in a header, a request that did not arrive in
 * time): the server's and the mock's `clientError` handler, so that both answer them alike.
 */
import { STATUS_CODES, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { failureBody, malformedRequestAnswer, type ErrorBody } from './edge.js';
import { matchOperation } from './match.js';
import type { Operation } from './operations.js';

/** What Node tells a `clientError` listener: its parser's error code and the bytes it had read. */
export interface ClientError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/**
 * The status and body answering a refused request. The request line, when Node kept it, names the
 * operation, whose documented answer to a request it cannot read applies (`malformedRequestAnswer`).
 * A request that did not arrive in time is 408: it names nothing a client still waits for, and
 * HTTP clients read 408 as "send it again on a new connection"; the document has no status for it.
 */
export function clientErrorAnswer(
  operations: readonly Operation[],
  error: ClientError,
): { status: number; body: ErrorBody; method: string } {
  const head = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.subarray(0, 8 * 1024).toString('latin1') : '';
  const requestLine = /^([A-Z]+) (\S+)/.exec(head);
  const method = requestLine?.[1] ?? '';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, body: { code: 'INVALID_REQUEST', error: 'the request was not received in time', details: null }, method };
  const match = requestLine ? matchOperation(operations, method, requestLine[2]!) : undefined;
  const answer = malformedRequestAnswer(match?.kind === 'operation' ? match.operation : undefined);
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request line and headers are larger than the server reads'
      : 'the request is not valid HTTP';
  return { status: answer.status, body: failureBody(answer, message), method };
}

/** A `clientError` listener: writes `clientErrorAnswer` on the socket and closes it. */
export function answerClientError(operations: readonly Operation[], error: ClientError, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, body, method } = clientErrorAnswer(operations, error);
  const text = method === 'HEAD' ? '' : JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/**
 * Node answers two requests itself, with an empty body, before any handler: an HTTP/1.1 request
 * without Host (400) and one that expects something other than 100-continue (417). The server and
 * the mock take both as the API does: the first reaches their handlers (they create their server
 * with `acceptAnyHost`'s options), which refuse it as a request they cannot read (`lacksHost`); the
 * second is served as if it expected nothing, as RFC 9110 lets a server do with an expectation it
 * does not know.
 */
export const acceptAnyHost = { requireHostHeader: false } as const;

/** Serves a request whose expectation Node does not know as if it had none (see `acceptAnyHost`). */
export function ignoreUnknownExpectations(server: Server): void {
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
}

/**
 * Node hands a CONNECT request to 'connect' listeners and, without one, closes the connection with
 * no answer at all. The server and the mock open no tunnel: a CONNECT goes to their handlers like
 * any other request, which answer it as a method the path does not have (405 with Allow on an
 * operation's path, 404 elsewhere, with the error body). Node has taken its parser, its timeouts
 * and its error listener off the connection by then, so the answer closes it, and a socket error
 * or a CONNECT pipelined behind an answer still being written (Node emits it while it parses)
 * destroys the connection rather than the process.
 */
export function answerConnectAsRequest(server: Server): void {
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    try {
      response.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
    } catch {
      socket.destroy();
      return;
    }
    response.on('finish', () => {
      response.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
      // Closed once the answer is flushed, whether or not the client closes its side.
      socket.once('finish', () => socket.destroy());
      socket.end();
    });
    server.emit('request', request, response);
  });
}

/**
 * A request target as the path it names: a CONNECT's authority (`example.com:443`), which URL would
 * read as a scheme, becomes `/example.com:443`, a path no operation has.
 */
export const targetAsPath = (method: string, target: string): string =>
  method === 'CONNECT' && !target.startsWith('/') ? `/${target}` : target;

/** An HTTP/1.1 request without the Host header HTTP/1.1 requires (RFC 9112, section 3.2). */
export const lacksHost = (request: IncomingMessage): boolean => request.httpVersion === '1.1' && request.headers.host === undefined;
