/** The console's contract check (src/console/contract.ts) flags answers that break the document. */
import { createSchemaValidator, loadBundle } from '@swap-gateway/openapi';
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../src/console/contract.js';

const document = loadBundle('gateway-v4');
const validator = createSchemaValidator(document);
const json = 'application/json; charset=utf-8';
const answer = (status: number | undefined, body: unknown, contentType = json) => ({
  path: '/v4/get-quote',
  method: 'get',
  status,
  contentType,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('checkAnswer', () => {
  it('passes the documented 400 body', () => {
    expect(
      checkAnswer(document, validator, answer(400, { code: 'INVALID_REQUEST', error: 'amount is not a number', details: null })),
    ).toMatchObject({ ok: true });
  });

  it('flags a body the schema refuses, naming what is wrong', () => {
    const verdict = checkAnswer(document, validator, answer(400, { code: 42, error: 'amount is not a number', details: null }));
    expect(verdict.ok).toBe(false);
    expect(verdict.message).toMatch(/^Breaks the contract: .*\/code/s);
  });

  it('flags an undocumented status, a body that is not JSON and a missing answer', () => {
    expect(checkAnswer(document, validator, answer(418, {})).message).toMatch(/does not document status 418/);
    expect(checkAnswer(document, validator, answer(200, '<html>', 'text/html')).message).toMatch(/the body is text\/html/);
    expect(checkAnswer(document, validator, answer(200, '{', json)).message).toMatch(/not valid JSON/);
    expect(checkAnswer(document, validator, answer(undefined, '')).message).toMatch(/^No answer/);
  });
});
