/**
 * Whether an answer the console received keeps the document's contract: its status is one the
 * operation documents, and its body validates against that response's schema. Runs in the browser
 * (bundled into assets/try-it.js) and in the tests.
 */
import { documentedResponse, jsonContent, readOperations, type OpenApiDocument, type SchemaValidator } from '@swap-gateway/openapi';

export interface ReceivedAnswer {
  path: string;
  method: string;
  /** 0 or undefined when no answer arrived (connection refused, or the browser's CORS check failed). */
  status: number | undefined;
  contentType: string | undefined;
  body: string;
}

export interface Verdict {
  ok: boolean;
  message: string;
}

export function checkAnswer(document: OpenApiDocument, validator: SchemaValidator, answer: ReceivedAnswer): Verdict {
  const { path, method, status } = answer;
  if (!status) {
    return {
      ok: false,
      message: 'No answer: is the gateway running at this address, and does it allow this page (CORS)? pnpm server and pnpm mock do.',
    };
  }
  const operation = readOperations(document).find((candidate) => candidate.path === path && candidate.method === method.toUpperCase());
  const response = operation && documentedResponse(operation, status);
  const name = `${method.toUpperCase()} ${path}`;
  if (!response) {
    return {
      ok: false,
      message: `Breaks the contract: ${name} does not document status ${status} (it documents ${Object.keys(operation?.responses ?? {}).join(', ')}).`,
    };
  }
  const schemaPointer = jsonContent(response)?.schemaPointer;
  if (!schemaPointer) {
    return answer.body.trim() === '' || Object.keys(response.content).length === 0
      ? { ok: true, message: `Matches the document: ${status}.` }
      : { ok: false, message: `Breaks the contract: ${name} ${response.status} documents no JSON body.` };
  }
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(answer.contentType ?? '')) {
    return {
      ok: false,
      message: `Breaks the contract: the body is ${answer.contentType ?? 'of no type'}, the document says application/json.`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    return { ok: false, message: 'Breaks the contract: the body is not valid JSON.' };
  }
  const { valid, errors } = validator.validate(schemaPointer, value);
  return valid
    ? { ok: true, message: `Matches the document: ${status}, the body validates against the ${response.status} response of ${name}.` }
    : {
        ok: false,
        message: `Breaks the contract: the ${status} body does not validate against the document: ${validator.describe(errors)}`,
      };
}
