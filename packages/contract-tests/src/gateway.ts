/**
 * The suite's only way to talk to a target. Every response goes through the contract check
 * (checker.ts) before a test sees it, and each conforming (operation, status) is recorded for the
 * coverage table.
 */
import { contractProblems } from './checker.js';
import { recordExercised } from './coverage.js';
import { documentedResponse, matchOperation, type Operation } from './document.js';

export interface GatewayRequest {
  method?: string;
  /** A concrete path, e.g. `/v4/get-order/abc`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with `contentType` (default application/json), for bodies that are not JSON. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Overrides the target's API key for this request; null sends none. */
  apiKey?: string | null;
  /** The request asks for a 5xx on purpose (the mock's `Prefer: code=500`). */
  serverErrorRequested?: boolean;
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
}

const requestTimeoutMs = 20_000;

export class ContractViolation extends Error {}

export function createGateway(url: string, apiKey?: string): Gateway {
  return {
    url,
    async send<Body>(request: GatewayRequest): Promise<GatewayResponse<Body>> {
      const method = (request.method ?? 'GET').toUpperCase();
      const target = new URL(`${url}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value !== undefined) target.searchParams.set(name, String(value));
      }
      const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
      const key = request.apiKey === undefined ? apiKey : request.apiKey;
      if (key !== null && key !== undefined) headers.authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (request.rawBody !== undefined || request.body !== undefined) {
        body = request.rawBody ?? JSON.stringify(request.body);
        headers['content-type'] = request.contentType ?? 'application/json';
      }

      const response = await fetch(target, { method, headers, body, signal: AbortSignal.timeout(requestTimeoutMs) });
      const text = await response.text();
      const operation = matchOperation(method, target.pathname);
      const problems = contractProblems(operation, { status: response.status, headers: response.headers, text }, { serverErrorRequested: request.serverErrorRequested });
      if (problems.length) {
        throw new ContractViolation(
          [`${method} ${target.pathname}${target.search} broke the contract:`, ...problems.map((problem) => `  - ${problem}`), `  response ${response.status}: ${text.slice(0, 800)}`].join('\n'),
        );
      }
      if (operation) recordExercised({ operationId: operation.operationId, status: documentedResponse(operation, response.status)!.status });
      const parsed = /json/.test(response.headers.get('content-type') ?? '') && text ? (JSON.parse(text) as Body) : (text as Body);
      return { status: response.status, headers: response.headers, body: parsed, operation };
    },
  };
}
