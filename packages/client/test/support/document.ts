/** The document's operations, examples and schemas, read through the model of @swap-gateway/openapi. */
import {
  createSchemaValidator,
  failureStatuses,
  jsonContent,
  loadBundle,
  readOperations,
  type MediaContent,
  type Operation,
} from '@swap-gateway/openapi';

export const document = loadBundle('gateway');
export const validator = createSchemaValidator(document);
export const operations = readOperations(document);

/** The operation at a path template and method (`get`, `GET`). */
export function operation(path: string, method: string): Operation {
  const found = operations.find((candidate) => candidate.path === path && candidate.method === method.toUpperCase());
  if (!found) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  return found;
}

const exampleValues = (media: MediaContent | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(media?.examples ?? {}).map(([name, example]) => [name, example.value]));

/** The named examples of one response of an operation. */
export function responseExamples(path: string, method: string, status: string): Record<string, unknown> {
  return exampleValues(jsonContent(operation(path, method).responses[status]));
}

export function responseExample<T>(path: string, method: string, status: string, name: string): T {
  const value = responseExamples(path, method, status)[name];
  if (value === undefined) throw new Error(`no example ${name} for ${method} ${path} ${status}`);
  return value as T;
}

/** Every documented error answer: operation (method as a request carries it), status and example body. */
export function errorExamples(): { path: string; method: string; status: number; name: string; body: unknown }[] {
  return operations.flatMap((candidate) =>
    failureStatuses(candidate).flatMap((status) =>
      Object.entries(exampleValues(jsonContent(candidate.responses[status]))).map(([name, body]) => ({
        path: candidate.path,
        method: candidate.method,
        status: Number(status),
        name,
        body,
      })),
    ),
  );
}

/** The named examples of an operation's request body. */
export function requestExamples(path: string, method: string): Record<string, unknown> {
  return exampleValues(jsonContent(operation(path, method).requestBody));
}

/** Where the schema of an operation's JSON request body stands, for `validator.validate`. */
export function requestBodySchemaPointer(path: string, method: string): string {
  const pointer = jsonContent(operation(path, method).requestBody)?.schemaPointer;
  if (pointer === undefined) throw new Error(`${method.toUpperCase()} ${path} has no JSON request body schema`);
  return pointer;
}
