/**
 * A thin HTTP front before Prism. Prism answers the document's examples well, but not the document's
 * errors: an invalid request gets Prism's problem+json (or, where a 400 is documented, the first 400
 * example, whatever its code), malformed JSON leaves the connection hanging, and an API key is
 * never checked for length. The front answers those cases with the documented structured error
 * and passes everything else to Prism untouched. Where the document leaves a choice to the
 * implementation, the front makes the server's, from @swap-gateway/openapi's edge rules:
 *
 * - a request Prism finds invalid (its `sl-violations` header lists request errors) gets 400
 *   `{ code: 'INVALID_REQUEST', error, details: { message } }` wherever the operation documents a 400;
 * - a body that is not JSON, not of the media type `application/json`, or not what the operation's
 *   body schema allows gets the same 400 before it reaches Prism, as the server answers it;
 * - an `Accept` header is not passed on: every answer is JSON, as the server's;
 * - query parameters reach Prism only as the document spells their names (Prism reads any letter
 *   case), others are ignored, and a required one missing gets the same 400;
 * - an `Authorization` header that does not present a 32-character key as `Bearer <key>` (the
 *   scheme in any case, `readApiKey`) gets the documented 401;
 * - a parameter or a JSON body holding a NUL character (`containsNul`) is answered with
 *   `malformedRequestAnswer`, as the server answers it;
 * - a request Node's parser refuses (headers larger than the mock reads, broken HTTP) is answered
 *   by `answerClientError`, the server's own answer to it;
 * - an HTTP/1.1 request without Host gets that answer too, and an expectation other than
 *   100-continue is ignored, where Node would answer either with an empty body (`acceptAnyHost`),
 *   and a CONNECT is answered as an unknown method where Node would close it (`answerConnectAsRequest`);
 * - an unknown path gets 404 and a known path with an unknown method 405, with the same error body
 *   (`matchOperation`); an empty path segment is 404, get-order's own (`emptyPathParameterAnswer`);
 * - a request target that cannot be percent-decoded (`%ZZ`, `%C0%AF`) is answered here with
 *   `malformedRequestAnswer` and never reaches Prism, whose router throws on it and takes the whole
 *   process down;
 * - a query parameter Prism lets through although its schema refuses it (an empty value, which
 *   Prism takes for an absent one; a number beyond a double or not spelled as a plain decimal, read
 *   by `coerceParameter`) gets the same 400;
 * - HEAD on a GET operation is sent to Prism as that GET and answered without the body;
 * - a request without `Prefer` is answered with the example of its route (see examples.ts);
 * - an error body Prism generates (dynamic mode) whose `details` are not the shape the document ties
 *   to its code (`x-detail-shapes-by-code`, an extension Prism does not read: it picks the code and
 *   the shape apart) gets the details of the document's example of that code (`detailsShapeProblem`);
 * - when Prism fails to answer, the documented 500 says so without naming Prism's address;
 * - CORS preflights are answered here and every answer carries the CORS headers (see cors.ts).
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  acceptAnyHost,
  answerConnectAsRequest,
  answerClientError,
  ignoreUnknownExpectations,
  lacksHost,
  targetAsPath,
  coerceParameter,
  containsNul,
  createSchemaValidator,
  detailShapesByCode,
  detailsShapeProblem,
  documentedErrorBodies,
  emptyPathParameterAnswer,
  failureBody,
  failureStatuses,
  malformedRequestAnswer,
  matchOperation,
  readApiKey,
  readOperations,
  requestMethods,
  type DocumentedFailure,
  type ErrorBody,
  type OpenApiDocument,
  type Operation,
} from '@swap-gateway/openapi';
import { createCors } from './cors.js';
import { exampleForRequest } from './examples.js';

export interface FrontOptions {
  document: OpenApiDocument;
  /** Where Prism listens now; waits while Prism is being restarted. */
  upstream: () => Promise<URL>;
  /** In dynamic mode the examples are not consulted, so no example is chosen for the client. */
  dynamic: boolean;
  /** Receives the cause of a request Prism failed to answer (the client only gets the documented 500). */
  log?: ((line: string) => void) | undefined;
}

interface Violation {
  location?: string[];
  severity?: string;
  message?: string;
}

export function createFront({ document, upstream, dynamic, log }: FrontOptions): Server {
  const operations = readOperations(document);
  const applyCors = createCors(requestMethods(operations));
  const validator = createSchemaValidator(document);
  const detailShapes = detailShapesByCode(document);
  /** For each code tied to a shape, the details of the document's first example of it. */
  const exampleDetails = new Map<string, unknown>();
  for (const operation of operations)
    for (const status of failureStatuses(operation))
      for (const body of documentedErrorBodies(operation, status))
        if (!exampleDetails.has(body.code) && body.details !== undefined && detailShapes.has(body.code))
          if (detailsShapeProblem(detailShapes, validator, body) === undefined) exampleDetails.set(body.code, body.details);

  // Node's limit on the request line and headers (16 KiB), as the server's: what goes beyond it is
  // answered alike by both (answerClientError below).
  // Requests Node would answer itself with an empty body: see acceptAnyHost.
  const server = createServer(acceptAnyHost, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A fault of the mock itself, not of the request: the documented 500 (every operation has
      // one), without a stack trace or the address Prism listens on.
      log?.(`${req.method} ${req.url}: Prism did not answer: ${String(error)}`);
      if (!res.headersSent) sendError(res, 500, { code: 'INTERNAL_ERROR', error: 'the mock failed to answer this request', details: null });
      else res.destroy();
    });
  });
  server.on('clientError', (error, socket) => answerClientError(operations, error, socket));
  ignoreUnknownExpectations(server);
  answerConnectAsRequest(server);
  return server;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (await applyCors(req, res)) return;
    const method = req.method ?? 'GET';
    const url = new URL(targetAsPath(method, req.url ?? '/'), 'http://mock.invalid');
    const body = await readBody(req);
    const match = matchOperation(operations, method, url.pathname);
    const malformed = malformedPart(url);
    if (lacksHost(req))
      return sendFailure(
        res,
        malformedRequestAnswer(match.kind === 'operation' ? match.operation : undefined),
        'an HTTP/1.1 request must name its Host',
      );

    if (match.kind === 'no-operation') {
      return sendError(res, 404, { code: 'INVALID_REQUEST', error: `no operation at ${url.pathname}`, details: null });
    }
    if (match.kind === 'method-not-allowed') {
      res.setHeader('Allow', match.allowed.join(', '));
      return sendError(res, 405, {
        code: 'INVALID_REQUEST',
        error: `${method} is not an operation of ${url.pathname}`,
        details: { message: `allowed: ${match.allowed.join(', ')}` },
      });
    }
    const { operation, pathParameters } = match;
    const empty = Object.entries(pathParameters).find(([, value]) => value === '');
    if (empty) return sendFailure(res, emptyPathParameterAnswer(operation), `the path has an empty ${empty[0]}: it names no operation`);

    if (malformed) {
      // An operation that reads no query answers as if the unreadable query were not there (below,
      // Prism gets no query it does not read), as a server ignores an unknown parameter; anything
      // else is the documented malformed request.
      if (malformed === 'path' || operation.parameters.some((parameter) => parameter.in === 'query'))
        return sendFailure(res, malformedRequestAnswer(operation), `the ${malformed} is not valid percent-encoded UTF-8`);
    }
    // Prism reads query names in any letter case; the server reads the document's names as spelled
    // and ignores any other: Prism gets only those, and a required one missing is refused below.
    const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
    const documentedQuery = new URLSearchParams(
      [...url.searchParams].filter(([name]) => queryParameters.some((parameter) => parameter.name === name)),
    ).toString();
    const path = `${(req.url ?? '/').split('?')[0]}${documentedQuery ? `?${documentedQuery}` : ''}`;

    const presented = req.headers.authorization === undefined ? undefined : readApiKey(req.headers.authorization);
    if (presented && 'refusal' in presented) return sendError(res, 401, presented.refusal);

    const unreadable = nulParameter(operation, pathParameters, url.searchParams);
    if (unreadable) return sendFailure(res, malformedRequestAnswer(operation), `${unreadable} contains a NUL character`);

    // Where the operation documents a 400, the front answers what it finds wrong with it.
    const badRequest = documentsBadRequest(operation);
    const refuse = (error: string, details: ErrorBody['details']) => sendError(res, 400, { code: 'INVALID_REQUEST', error, details });
    const missing = queryParameters.find((parameter) => parameter.required && !url.searchParams.has(parameter.name));
    if (missing && badRequest) {
      const message = `query parameter ${missing.name} is required`;
      return refuse(message, { message });
    }
    const queryError = badRequest ? checkQuery(operation, url.searchParams) : undefined;
    if (queryError) return sendError(res, 400, queryError);

    const bodySchema = operation.requestBody?.content['application/json']?.schemaPointer;
    const json = isJson(req.headers['content-type']);
    if (bodySchema && body.length > 0 && !json && badRequest)
      return refuse('the request body must be application/json', {
        expected: 'application/json',
        actual: req.headers['content-type'] ?? 'none',
      });
    let parsed: unknown;
    if (body.length > 0 && json) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch (error) {
        if (badRequest) return refuse('the body is not valid JSON', { message: (error as Error).message });
      }
    }
    if (containsNul(parsed)) return sendFailure(res, malformedRequestAnswer(operation), 'the request body contains a NUL character');
    // Checked here rather than by Prism, whose verdict travels in a header: a member name outside
    // Latin-1 in it made Node throw inside Prism, which then failed the request and, four times in a
    // minute, the whole mock.
    if (parsed !== undefined && bodySchema && badRequest) {
      const { valid, errors } = validator.validate(bodySchema, parsed);
      if (!valid) return refuse('the request body does not match the document', { message: validator.describe(errors) });
    }

    // Prism reads only `Bearer <key>`; the key the front has read is passed on in that spelling.
    const headers: IncomingMessage['headers'] = { ...req.headers, ...(presented && { authorization: `Bearer ${presented.key}` }) };
    // An expectation the front ignored (ignoreUnknownExpectations) is not Prism's to refuse, nor an
    // Accept without JSON, which the server does not read either (every answer is JSON): Prism
    // would answer it 406, a status the document gives no operation.
    delete headers.expect;
    delete headers.accept;
    if (!dynamic && !headers.prefer) {
      const example = exampleForRequest(operation, url.searchParams, parsed);
      if (example) headers.prefer = `example=${example}`;
    }
    return forward(res, body, { operation, headers, path });
  }

  /** Each query parameter given, against its schema (its text read by the document's `coerceParameter`, as the server reads it). */
  function checkQuery(operation: Operation, query: URLSearchParams): ErrorBody | undefined {
    for (const { name, schemaPointer, schema } of operation.parameters.filter((parameter) => parameter.in === 'query')) {
      for (const text of query.getAll(name)) {
        const { valid, errors } = validator.validate(schemaPointer, coerceParameter(schema, text));
        if (!valid)
          return {
            code: 'INVALID_REQUEST',
            error: `query parameter '${name}' is invalid`,
            details: { message: validator.describe(errors) },
          };
      }
    }
    return undefined;
  }

  /** Prism's error body with its code's details, when those it generated are not its code's shape; undefined to keep it. */
  function fitDetails(answer: IncomingMessage, text: Buffer): Buffer | undefined {
    if ((answer.statusCode ?? 0) < 400 || !isJson(answer.headers['content-type'])) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text.toString('utf8'));
    } catch {
      return undefined;
    }
    if (detailsShapeProblem(detailShapes, validator, body) === undefined) return undefined;
    const details = exampleDetails.get((body as { code: string }).code);
    return details === undefined ? undefined : Buffer.from(JSON.stringify({ ...(body as object), details }));
  }

  async function forward(
    res: ServerResponse,
    body: Buffer,
    context: { operation: Operation; headers: IncomingMessage['headers']; path: string },
  ): Promise<void> {
    const prism = await upstream();
    // HEAD is asked of Prism as the GET it stands for; Node leaves the body out of a HEAD answer.
    const method = context.operation.method;
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        { host: prism.hostname, port: prism.port, method, path: context.path, headers: { ...context.headers, host: prism.host } },
        (answer) => {
          readBody(answer).then((answerBody) => {
            const translated = translateViolations(context.operation, answer);
            if (translated) {
              res.setHeader('sl-violations', answer.headers['sl-violations'] ?? '');
              sendError(res, 400, translated);
            } else {
              const fitted = fitDetails(answer, answerBody);
              res.writeHead(
                answer.statusCode ?? 500,
                fitted ? { ...answer.headers, 'content-length': String(fitted.length) } : answer.headers,
              );
              res.end(fitted ?? answerBody);
            }
            resolve();
          }, reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  }
}

/** Prism's verdict on an invalid request, as the documented 400 body; undefined when the request was valid or no 400 is documented. */
function translateViolations(operation: Operation, answer: IncomingMessage): ErrorBody | undefined {
  if (!documentsBadRequest(operation) || (answer.statusCode !== 400 && answer.statusCode !== 422)) return undefined;
  const header = answer.headers['sl-violations'];
  if (typeof header !== 'string') return undefined;
  const violations = (JSON.parse(header) as Violation[]).filter(
    (violation) => violation.location?.[0] === 'request' && violation.severity === 'Error',
  );
  if (violations.length === 0) return undefined;
  // Prism lower-cases query parameter names in its messages; give them back the document's spelling.
  const spelled = violations.map(({ message = 'invalid request' }) =>
    operation.parameters.reduce((text, { name }) => text.replaceAll(`'${name.toLowerCase()}'`, `'${name}'`), message),
  );
  return { code: 'INVALID_REQUEST', error: spelled[0]!, details: { message: spelled.join('; ') } };
}

/** The operation's parameter (path or query) whose value holds a NUL character, if any, as `<in> parameter <name>`. */
function nulParameter(operation: Operation, pathParameters: Record<string, string>, query: URLSearchParams): string | undefined {
  const found = operation.parameters.find(({ name, in: location }) =>
    location === 'path'
      ? containsNul(decodeURIComponent(pathParameters[name] ?? ''))
      : location === 'query' && containsNul(query.getAll(name)),
  );
  return found && `${found.in} parameter ${found.name}`;
}

/** Which part of the request target cannot be percent-decoded, if any. */
function malformedPart(url: URL): 'path' | 'query' | undefined {
  const decodes = (text: string) => {
    try {
      decodeURIComponent(text.replaceAll('+', ' '));
      return true;
    } catch {
      return false;
    }
  };
  if (!decodes(url.pathname)) return 'path';
  if (!decodes(url.search.slice(1))) return 'query';
  return undefined;
}

/** The one media type of the document's bodies, as the server reads it: `application/json`, parameters aside. */
function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(?:;|$)/i.test(contentType ?? '');
}

const documentsBadRequest = (operation: Operation) => '400' in operation.responses;

/** A failure the document's edge rules decide, with the body they give it. */
function sendFailure(res: ServerResponse, failure: DocumentedFailure, message: string): void {
  sendError(res, failure.status, failureBody(failure, message));
}

function sendError(res: ServerResponse, status: number, body: ErrorBody): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
