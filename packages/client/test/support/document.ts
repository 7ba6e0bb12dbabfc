/** The document's examples and schemas, read through @swap-gateway/openapi. */
import { createSchemaValidator, loadBundle } from '@swap-gateway/openapi';

export const document = loadBundle('gateway');
export const validator = createSchemaValidator(document);

interface ExampleObject {
  value: unknown;
}
interface MediaObject {
  examples?: Record<string, ExampleObject>;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaObject>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
  requestBody?: { content: Record<string, MediaObject> };
}

export function operation(path: string, method: string): OperationObject {
  return (document.paths[path] as Record<string, OperationObject>)[method]!;
}

/** Every operation of the document: path, method and operationId. */
export function operations(): { path: string; method: string; operationId: string }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, OperationObject>).map(([method, op]) => ({ path, method, operationId: op.operationId })),
  );
}

function resolveResponse(response: ResponseObject): ResponseObject {
  if (!response.$ref) return response;
  const name = response.$ref.replace('#/components/responses/', '');
  return (document.components.responses as Record<string, ResponseObject>)[name]!;
}

/** The named examples of one response of an operation. */
export function responseExamples(path: string, method: string, status: string): Record<string, unknown> {
  const examples = resolveResponse(operation(path, method).responses[status]!).content?.['application/json']?.examples ?? {};
  return Object.fromEntries(Object.entries(examples).map(([name, example]) => [name, example.value]));
}

export function responseExample<T>(path: string, method: string, status: string, name: string): T {
  const value = responseExamples(path, method, status)[name];
  if (value === undefined) throw new Error(`no example ${name} for ${method} ${path} ${status}`);
  return value as T;
}

/** Every documented error answer: operation, status and example body. */
export function errorExamples(): { path: string; method: string; status: number; name: string; body: unknown }[] {
  return operations().flatMap(({ path, method }) =>
    Object.keys(operation(path, method).responses)
      .filter((status) => Number(status) >= 400)
      .flatMap((status) =>
        Object.entries(responseExamples(path, method, status)).map(([name, body]) => ({ path, method, status: Number(status), name, body })),
      ),
  );
}

/** The named examples of an operation's request body. */
export function requestExamples(path: string, method: string): Record<string, unknown> {
  const examples = operation(path, method).requestBody?.content['application/json']?.examples ?? {};
  return Object.fromEntries(Object.entries(examples).map(([name, example]) => [name, example.value]));
}
