/**
 * Every gap the description admits ("... not shown") is marked x-unspecified at
 * the right place in the document, and the open-questions list reports every
 * mark with its sentence.
 */
import { describe, expect, it } from 'vitest';
import { listOpenQuestions, loadBundle } from '@swap-gateway/openapi';
import { descriptionAvailable, readDescription } from './helpers/description.js';

const document = loadBundle('gateway');
const questions = listOpenQuestions(document);

/** Each "not shown" phrase of the description -> where the document marks it. */
const gaps: [phrase: RegExp, pointer: string][] = [
  [/V4 offramp and tokenSwap quote field lists/, '#/components/schemas/GatewayOfframpQuoteV4'],
  [/V4 offramp and tokenSwap quote field lists/, '#/components/schemas/GatewayTokenSwapQuoteV4'],
  [/`depositAddress`.*Whether required/, '#/components/schemas/GatewayOrderInfoV3/properties/depositAddress'],
  [/`estimatedTimeInSecs`.*Whether required/, '#/components/schemas/GatewayOrderInfoV3/properties/estimatedTimeInSecs'],
  [/Payload of `failed`/, '#/components/schemas/GatewayOrderStatusFailedV3/properties/failed'],
  [/Transitions/, '#/components/schemas/GatewayOrderStatusV3'],
  [/V4 response body/, '#/components/schemas/GatewayRoutesV4'],
  [/Status codes other than 201/, '#/paths/~1v4~1create-order/post'],
  [/Status codes other than 201/, '#/paths/~1v3~1create-order/post'],
  [/Request and response details/, '#/components/parameters/bitcoinAddress'],
  [/Request and response details/, '#/components/schemas/GatewayMaxSpendableV4'],
  [/Events/, '#/info'],
  [/V4 body field set/, '#/components/schemas/GatewayErrorV4'],
  [/Which detail shape/, '#/components/schemas/GatewayErrorDetails'],
  [/Conditions for all other codes/, '#/components/schemas/GatewayErrorCodeV3'],
  [/HTTP statuses per code/, '#/components/schemas/GatewayErrorCodeV3'],
  [/rate limit values/, '#/components/responses/TooManyRequestsV4'],
  [/their values and the allowed slippage range/, '#/components/parameters/amount'],
  [/their values and the allowed slippage range/, '#/components/parameters/slippage'],
];

describe.runIf(descriptionAvailable)('every "not shown" of the description is an x-unspecified of the document', () => {
  const { text } = descriptionAvailable ? readDescription() : { text: '' };
  const sentences = [...text.matchAll(/[^.|\n]*(?:\n[^.|\n#]+)*?not shown[^.|\n]*/g)].map((match) => match[0].trim());

  it("finds the description's gaps", () => expect(sentences.length).toBeGreaterThanOrEqual(14));

  it.each(sentences)('"%s" is mapped to the document', (sentence) => {
    const context = text.slice(Math.max(0, text.indexOf(sentence) - 120), text.indexOf(sentence) + sentence.length);
    expect(
      gaps.some(([phrase]) => phrase.test(sentence) || phrase.test(context)),
      sentence,
    ).toBe(true);
  });

  it.each(gaps.map(([phrase, pointer]) => [pointer, phrase.source] as const))('%s is marked (%s)', (pointer) => {
    expect(questions.some((question) => question.kind === 'unspecified' && question.pointer === pointer)).toBe(true);
  });
});

describe('the open-questions list', () => {
  it('reports each mark with a readable place and its sentence', () => {
    const timestamp = questions.find((question) => question.pointer === '#/components/schemas/GatewayOrderInfoV3/properties/timestamp');
    expect(timestamp).toMatchObject({ kind: 'unspecified', location: 'GatewayOrderInfoV3 › timestamp' });
    expect(timestamp!.text).toMatch(/^The unit .*\.$/);
    const response = questions.find((question) => question.pointer.startsWith('#/paths/~1v4~1get-quote/get/responses/400'));
    expect(response).toMatchObject({ kind: 'inferred', location: 'GET /v4/get-quote › responses › 400' });
  });

  it('counts exactly the marks in the document', () => {
    const marks = JSON.stringify(document).match(/"x-(unspecified|inferred)":/g) ?? [];
    expect(questions).toHaveLength(marks.length);
    expect(new Set(questions.map((question) => question.kind))).toEqual(new Set(['unspecified', 'inferred']));
  });
});
