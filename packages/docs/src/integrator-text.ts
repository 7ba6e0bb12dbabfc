/**
 * The document as integrators read it. The OpenAPI document is written for API review as well: its
 * descriptions say where a fact comes from ("the description does not show ...", "inferred from the
 * public gateway ...", "a choice of this document"), and its `x-inferred` and `x-unspecified` notes say
 * what is open. The open-questions page shows all of that to reviewers. The pages integrators read
 * (the reference, the console, the guides' tables, llms-full.md, search) get the document without the
 * notes and with each such sentence rewritten for them below, or left out where it adds nothing for
 * them ('').
 *
 * A sentence of that kind that is not listed here (the document changed) is dropped clause by clause,
 * so that it never reaches an integrator, and the build says so: add its rewrite here.
 */
import { withoutReviewNotes } from './document.js';

/** What a sentence for API review says when it is about where a fact comes from. */
const provenance =
  /\b(the description|description's|this document|the document's|public gateway|bob-collective|gateway-docs|not shown|inferred)\b|`x-[a-zA-Z-]+`/i;

/** Each sentence for API review of the document's descriptions, and what integrators read instead ('' leaves it out). */
export const integratorRewrites: Record<string, string> = {
  // get-routes and its body.
  "The description does not show the V4 body; it is documented as the earlier V2 form, an array of route entries (`srcChain`, `srcToken`, `dstChain`, `dstToken`), which is how the public gateway's V4 client reads it.":
    'It answers an array of route entries (`srcChain`, `srcToken`, `dstChain`, `dstToken`).',
  "The description does not show the V4 body; this is the earlier V2 form, an array of route entries, as the public gateway's V4 client reads it.":
    'An array of route entries.',
  // The failures of the operations and their examples.
  "The sandbox server's largest affiliate fee (1000 bps); the description does not show it.":
    "The sandbox server's largest affiliate fee (1000 bps); it differs by deployment.",
  "The sandbox server's slippage range (10 to 1000 bps); the description does not show the allowed range.":
    "The sandbox server's slippage range (10 to 1000 bps); the range differs by deployment.",
  "The sandbox server's check of the order's OP_RETURN data; the description says only that the transaction is validated against the order.":
    "The sandbox server's check of the order's OP_RETURN data: the transaction is validated against the order.",
  "The description says a PSBT is not accepted; the code and the details are the sandbox server's.":
    "A PSBT is not accepted: register the finalized, signed transaction. The code and the details are the sandbox server's.",
  "The examples are the sandbox server's answers; which condition gives which code is not shown, and a code's detail shape is known only where GatewayErrorDetails infers it.":
    "The examples are the sandbox server's answers; a deployment may answer a condition with another code. The details of a code follow the table of the errors guide.",
  "The examples are the sandbox server's answers, but for the failures of a chain or an aggregator the sandbox does not simulate, whose examples say so; which condition gives which code is not shown, and a code's detail shape is known only where GatewayErrorDetails infers it.":
    "The examples are the sandbox server's answers, but for the failures of a chain or an aggregator the sandbox does not simulate, whose examples say so; a deployment may answer a condition with another code. The details of a code follow the table of the errors guide.",
  "The conditions of the other codes, their HTTP statuses and their detail shapes are not shown; GatewayErrorDetails gives the detail shapes of some codes as inferred from the public gateway's TypeScript SDK.":
    'Handle a code you do not expect as a failure of its request; the errors guide gives the details each code carries.',
  // Sentences of the document's third review (issue 28) and of the error details per code.
  'How this gateway answers (conditions the description does not show): a quote sealed by its `signedQuoteData` is accepted as issued until it expires (then ORDER_EXPIRED), even when prices have moved since, and the same sealed quote sent a second time is refused with DUPLICATE_ORDER.':
    'How this gateway answers: a quote sealed by its `signedQuoteData` is accepted as issued until it expires (then ORDER_EXPIRED), even when prices have moved since, and the same sealed quote sent a second time is refused with DUPLICATE_ORDER.',
  'How this gateway answers (conditions the description does not show): an onramp quote keeps its `signedQuoteData` and is accepted as issued until it expires (then ORDER_EXPIRED); the same sealed quote sent a second time is refused with DUPLICATE_ORDER, and a quote whose `signedQuoteData` does not match it, on any route, with INVALID_ORDER_ARGS.':
    'How this gateway answers: an onramp quote keeps its `signedQuoteData` and is accepted as issued until it expires (then ORDER_EXPIRED); the same sealed quote sent a second time is refused with DUPLICATE_ORDER, and a quote whose `signedQuoteData` does not match it, on any route, with INVALID_ORDER_ARGS.',
  'How this gateway answers each (conditions the description does not show): a sealed quote is accepted as issued until it expires, even when prices have moved since, and is refused with ORDER_EXPIRED after that; the same sealed quote sent to create-order a second time is refused with DUPLICATE_ORDER.':
    'How this gateway answers each: a sealed quote is accepted as issued until it expires, even when prices have moved since, and is refused with ORDER_EXPIRED after that; the same sealed quote sent to create-order a second time is refused with DUPLICATE_ORDER.',
  "Native BTC on the bitcoin chain is named by the zero EVM address `0x0000000000000000000000000000000000000000`, the public gateway's convention for native assets, not the description's.":
    'Native BTC on the bitcoin chain is named by the zero EVM address `0x0000000000000000000000000000000000000000`.',
  'Native BTC on the bitcoin chain is named by the zero EVM address `0x0000000000000000000000000000000000000000`: the public gateway\'s convention for native assets, not the description\'s (whose rule for Bitcoin is "a Bitcoin address", and native BTC has none).':
    'Native BTC on the bitcoin chain is named by the zero EVM address `0x0000000000000000000000000000000000000000`.',
  "Native BTC on the bitcoin chain is named by the zero EVM address, the public gateway's convention for native assets, not the description's.":
    'Native BTC on the bitcoin chain is named by the zero EVM address `0x0000000000000000000000000000000000000000`.',
  'Strategy field; the description says no more of it.': 'Strategy field.',
  'The description does not show amount limits.': 'Amount limits differ by deployment.',
  'The fees are given in sats on `bitcoin`, as the sandbox server gives them; the description does not say in which token offramp fees are given.':
    'The fees are given in sats on `bitcoin`, as the sandbox server gives them.',
  'The supported chains are those get-routes returns; how its V4 body names them is not shown, and the document reads them as the `dstChain` of its route entries.':
    'The supported chains are those get-routes returns.',
  'The supported chains are those get-routes returns; how its V4 body names them is not shown, and the document reads them as the `srcChain` of its route entries.':
    'The supported chains are those get-routes returns.',
  'The supported chains are those get-routes returns; how its V4 body names them is not shown, and the document reads them as the chains of its route entries.':
    'The supported chains are those get-routes returns.',
  "What it holds is not shown; the public gateway's document (V1 to V3) gives it as `ok`, as the example does.":
    'Do not rely on what it holds: it may be `ok`, as in the example.',
  "What the string holds is not shown. The public gateway's document (V1 to V3) answers `ok`, as here; the sandbox server answers the object form.":
    'Do not rely on what the string holds: it may be `ok`, as here. This gateway answers the object form.',
  "Which moment of the order it records, its unit and its epoch are not shown; the sandbox server gives the order's creation time in Unix seconds.":
    "The sandbox server gives the order's creation time in Unix seconds; do not rely on the moment, unit or epoch.",
  "Which shape goes with which code is inferred from the public gateway's TypeScript SDK (see x-inferred), code by code: INSUFFICIENT_AMOUNT and INSUFFICIENT_PAYMENT_AMOUNT carry `expectedActual` (`expected`, `actual`; for INSUFFICIENT_AMOUNT, `expected` is the route's smallest amount and `actual` the amount asked); QUOTE_AMOUNT_TOO_LOW carries `minimumActual` (`minimum`, `actual`); INSUFFICIENT_SWAP_AMOUNT carries `requiredAvailable` (`required`, `available`); UNABLE_TO_COVER_FEES carries `feesAvailable` (`total_fees`, `available_amount`); SIMULATION_FAILED and GAS_ESTIMATE_FAILED carry `simulation` (`tenderly_url`); NO_ROUTE carries `route` (`src_chain`, `src_token`, `dst_chain`, `dst_token`); INSUFFICIENT_SOLVER_BALANCE carries `tokenLimit` (`limit`, `token`, `chain_id`); EXCEEDED_LIMIT carries `limit` (`limit`).":
    'The details of each code: see the errors guide.',
  '`x-detail-shapes-by-code` gives the same list for programs, code to the title of its shape.': '',
  // Orders and their states.
  "The transitions between the states are not shown, so neither is which states are final: the sandbox server never moves an order out of `success`, `failed` or `refunded`, and the client's `isSettled` and `waitForOrder` treat those three as settled.":
    "Treat `success`, `failed` and `refunded` as final, as the client's `isSettled` and `waitForOrder` do: the sandbox server never moves an order out of them.",
  'The order of the orders is not shown by the description; the sandbox server lists the newest first.':
    'The sandbox server lists the newest first; do not rely on the order.',
  'Listed newest first, as the sandbox server does; the description does not show the order.':
    'Listed newest first, as the sandbox server does.',
  'The transitions between them are not shown; the sandbox server moves an order from `inProgress` to exactly one of the other three and never out of it.':
    'Treat `success`, `failed` and `refunded` as final: the sandbox server moves an order from `inProgress` to exactly one of them and never out of it.',
  'What it holds and whether it is always present are not shown; the sandbox server sets it on onramps only, to the Bitcoin address the user pays.':
    'The sandbox server sets it on onramps only, to the Bitcoin address the user pays; it may be absent.',
  "The description does not show this payload; it is inferred to be an object, as in the public gateway's document (`gateway-docs/openapi.json` in bob-collective/bob), where it may carry `refund_tx`.":
    'An object, which may carry `refund_tx`.',
  "A refund transaction, or null (the public gateway's field; the sandbox never sends it).":
    'A refund transaction, or null (the sandbox never sends it).',
  // get-max-spendable.
  'The description gives only the path parameter `address`.': '',
  'What follows is inferred from the public gateway the description documents: its OpenAPI document (`gateway-docs/openapi.json` in bob-collective/bob) answers this call with the maximum Bitcoin amount the given Bitcoin address can spend after estimated transaction fees, as `GatewayMaxSpendable { userAddress, amount }`, which is the answer documented here.':
    'It answers the maximum Bitcoin amount the given Bitcoin address can spend after estimated transaction fees, as `{ userAddress, amount }`.',
  'The address and the most it can spend (inferred shape, see the schema).': 'The address and the most it can spend.',
  "The sandbox server's answer for this address, in the inferred shape (the description shows no body): the address and the most it can pay after the network fee, in sats, as an amount of native BTC.":
    "The sandbox server's answer for this address: the address and the most it can pay after the network fee, in sats, as an amount of native BTC.",
  'The description shows no response body; this shape is inferred from the public gateway the description documents, whose OpenAPI document (`gateway-docs/openapi.json` in bob-collective/bob) answers get-max-spendable with `GatewayMaxSpendable { userAddress, amount }`: the maximum Bitcoin amount the address can spend after estimated transaction fees, in sats, as an amount of native BTC on `bitcoin`.':
    'The maximum Bitcoin amount the address can spend after estimated transaction fees, in sats, as an amount of native BTC on `bitcoin`.',
  'The most the address can spend, in the smallest unit of the token (inferred: the public gateway gives the Bitcoin amount after estimated transaction fees, in sats).':
    'The most the address can spend, in the smallest unit of the token: for Bitcoin, in sats after estimated transaction fees.',
  "The description gives only its name; its meaning is inferred from the public gateway's document (`gateway-docs/openapi.json` in bob-collective/bob), which calls it the Bitcoin address to calculate the maximum spendable amount for.":
    'The Bitcoin address to calculate the maximum spendable amount for.',
  // Error codes and details.
  '`x-introduced-in` gives the version that introduced each code (`base` for the codes every version has); `x-enumDescriptions` glosses each code by its name, not by the conditions that produce it.':
    '',
  'The description shows two conditions of V3 codes only: a token swap with more than one affiliate gives TOO_MANY_AFFILIATES, and create-order failures are HTTP 400 (a third, of a V4 code, is in GatewayErrorCodeV4).':
    'A token swap with more than one affiliate gives TOO_MANY_AFFILIATES, and create-order failures are HTTP 400.',
  'The description shows the condition of the V4 code: create-order given a quote requested without a refund address.':
    'The code added in V4 answers create-order given a quote requested without a refund address.',
  "This document closes each shape (no fields beyond its own) so that exactly one alternative matches; the description lists the shapes' fields but does not say whether a shape may carry others.":
    'Exactly one shape matches a given `details`.',
  "The optional `code` is not in the description's register-tx body; the sandbox server adds it.":
    "The optional `code` is the sandbox server's; do not rely on it.",
  // Quotes and amounts.
  'The description gives `signedQuoteData` to onramp quotes only; carrying it here is a choice of this document and the sandbox server.':
    'Pass it back unchanged with the quote.',
  'In the examples and the sandbox server every fee is taken from the Bitcoin payout and given in sats on `bitcoin`; the description does not say in which token the fees are given.':
    "In the examples and the sandbox server every fee is taken from the Bitcoin payout and given in sats on `bitcoin`; read each fee's token rather than assume it.",
  // Rate limits.
  'Always sent with a 429 and a 503 (a choice of this document; the description does not show how rate limits or outages are answered).':
    'Sent with a 429 and a 503: wait that many seconds before sending the request again.',
  "How a rate limit is answered is not shown by the description: HTTP 429, the code EXCEEDED_LIMIT and a Retry-After that is always sent are this document's choices, which the sandbox server follows.":
    'It is answered with HTTP 429, the code EXCEEDED_LIMIT and a Retry-After header, as the sandbox server does.',
  "The built-in sandbox's limit without a key (1200 requests per 60 seconds); the description does not show rate-limit values.":
    "The built-in sandbox's limit without a key (1200 requests per 60 seconds); limits differ by deployment.",
};

/**
 * What the guides say where one asks for a schema's note for API review (`<!-- generated:unspecified:NAME -->`,
 * `<!-- generated:inferred:NAME -->`): what an integrator does about the open point, the note itself
 * being on the open-questions page.
 */
const integratorNotes: Record<string, string> = {
  'x-unspecified:GatewayErrorV4':
    'Rely on `code` only: `error` and `details` may be missing from a V4 error body, and it may carry other fields.',
  'x-inferred:GatewayRegisterTxErrorV4':
    "register-tx answers `error`, with `details` (`expected`, `actual`) for a payment that does not match its order; its optional `code` is the sandbox server's, so do not rely on it.",
  'x-unspecified:GatewayErrorCodeV3':
    'Which conditions give most codes, with which HTTP status and details, is not specified: handle a code you do not expect as a failure of its request.',
  'x-inferred:GatewayErrorDetails': "Read `details` by `code`, as the TypeScript client's typed errors do.",
  'x-unspecified:GatewayErrorDetails': 'For any other code, `details` may be any of the shapes above, or null: do not rely on its fields.',
};

/** The guides' sentence for a schema's note for API review; the open-questions page has the note. */
export function integratorNote(schemaName: string, marker: 'x-unspecified' | 'x-inferred'): string {
  const note = integratorNotes[`${marker}:${schemaName}`];
  if (note !== undefined) return note;
  unlistedSentences.add(`${marker} of ${schemaName}`);
  return 'This is not specified: do not rely on it (see the open questions).';
}

/** A sentence for API review that has no rewrite: its clauses that say where a fact comes from are left out. */
function withoutProvenance(sentence: string): string {
  const clauses = sentence
    .replace(/[.]$/, '')
    .split(/;\s+/)
    .filter((clause) => !provenance.test(clause));
  if (clauses.length === 0) return '';
  const text = clauses.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Sentences of the document without a rewrite, met by this build (the build reports them). */
export const unlistedSentences = new Set<string>();

/** A description as integrators read it: each paragraph that speaks of provenance rewritten sentence by sentence. */
export function integratorText(text: string): string {
  return text
    .split(/(\n\s*\n)/)
    .map((paragraph) => {
      if (!provenance.test(paragraph)) return paragraph;
      const sentences = paragraph
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?])\s+(?=[A-Z`(*_])/);
      return sentences
        .map((sentence) => {
          if (!provenance.test(sentence)) return sentence;
          const rewrite = integratorRewrites[sentence];
          if (rewrite !== undefined) return rewrite;
          unlistedSentences.add(sentence);
          return withoutProvenance(sentence);
        })
        .filter(Boolean)
        .join(' ');
    })
    .join('')
    .trim();
}

/** Where a document holds values (examples, defaults, enumerations), whose strings are data, not descriptions. */
const dataKeys = new Set(['value', 'example', 'default', 'const', 'enum', 'x-codeSamples']);

/** A copy of a document (or part of one) as integrators read it: no notes for API review, every description and summary rewritten. */
export function forIntegrators<T>(node: T): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => {
        if (dataKeys.has(key)) return [key, child];
        if ((key === 'description' || key === 'summary') && typeof child === 'string') return [key, integratorText(child)];
        return [key, walk(child)];
      }),
    );
  };
  return walk(withoutReviewNotes(node)) as T;
}

/** Whether a text still says where a fact comes from, for the tests. */
export const speaksOfProvenance = (text: string) => provenance.test(text);
