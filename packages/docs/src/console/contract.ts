/**
 * Whether an answer the console received keeps the document's contract: its status is one the
 * operation documents, and its body validates against that response's schema. Runs in the browser
 * (bundled into assets/try-it.js) and in the tests.
 */
import type { OpenApiDocument, SchemaValidator } from '@swap-gateway/openapi';
import { resolve } from '../document.js';

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

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;

export function checkAnswer(document: OpenApiDocument, validator: SchemaValidator, answer: ReceivedAnswer): Verdict {
  const { path, method, status } = answer;
  if (!status) {
    return { ok: false, message: 'No answer: is the gateway running at this address, and does it allow this page (CORS)? pnpm server and pnpm mock do.' };
  }
  const operation = (document.paths as Record<string, Record<string, { responses?: Responses }>> | undefined)?.[path]?.[method.toLowerCase()];
  const responses = operation?.responses ?? {};
  const documented = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in responses);
  const name = `${method.toUpperCase()} ${path}`;
  if (!documented) {
    return { ok: false, message: `Breaks the contract: ${name} does not document status ${status} (it documents ${Object.keys(responses).join(', ')}).` };
  }
  const content = resolve<{ content?: Record<string, { schema?: unknown }> }>(document, responses[documented]).content;
  if (!content?.['application/json']?.schema) {
    return answer.body.trim() === '' || !content
      ? { ok: true, message: `Matches the document: ${status}.` }
      : { ok: false, message: `Breaks the contract: ${name} ${documented} documents no JSON body.` };
  }
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(answer.contentType ?? '')) {
    return { ok: false, message: `Breaks the contract: the body is ${answer.contentType ?? 'of no type'}, the document says application/json.` };
  }
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    return { ok: false, message: 'Breaks the contract: the body is not valid JSON.' };
  }
  const { valid, errors } = validator.validate(validator.responsePointer(path, method, documented), value);
  return valid
    ? { ok: true, message: `Matches the document: ${status}, the body validates against the ${documented} response of ${name}.` }
    : { ok: false, message: `Breaks the contract: the ${status} body does not validate against the document: ${validator.describe(errors)}` };
}
