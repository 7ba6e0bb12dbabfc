/**
 * Verifying an offramp or token-swap quote that comes back without its seal: clients generated from
 * the public documents pass these routes' quotes through models that lack `signedQuoteData` and, by
 * version, other fields (`notInClientModels`; a V3 offramp names its refund address in
 * `ownerAddress`). So create-order rebuilds the get-quote request from the quote's own fields, quotes
 * it again at the current prices, and accepts the quote only when every value equals the new
 * quote's. When a value differs (the quote was changed, or prices moved since it was issued) the
 * client is told which, and to request a new quote.
 */
import { invalidOrderArgs } from '../errors.js';
import { bps, formatScaled } from './amounts.js';
import { computeQuote, grossOutput, rate, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { canonicalJson } from './seal.js';

type Amount = { amount: string; address: string; chain: string };
export type ReceivedQuote = Record<string, unknown> & {
  inputAmount: Amount;
  outputAmount: Amount;
  recipient: string;
  slippage: string | number;
};

type ApiVersion = 'v3' | 'v4';

/** Fields the client's models do not have for these routes: not compared when the quote comes without them. */
const notInClientModels: Record<ApiVersion, string[]> = {
  v4: ['signedQuoteData', 'ownerAddress'],
  v3: ['signedQuoteData', 'ownerAddress', 'refundAddress'],
};

/** Differences named in a refusal, at most. */
const namedDifferences = 6;

/** Throws INVALID_ORDER_ARGS unless the received quote is the one get-quote answers for it now. */
export function requote(
  route: 'offramp' | 'tokenSwap',
  received: ReceivedQuote,
  context: QuoteEngineContext,
  apiVersion: ApiVersion,
): void {
  const request = requestOf(route, received, context);
  let current: Record<string, unknown>;
  try {
    const issued = computeQuote(request, context);
    if (issued.route !== route) throw new Error(`the tokens make a ${issued.route} quote`);
    current = issued.quote;
  } catch (error) {
    throw invalidOrderArgs('the quote cannot be issued again as it is; request a new quote', { message: (error as Error).message });
  }
  const skipped = notInClientModels[apiVersion];
  const fields = [...new Set([...Object.keys(current), ...Object.keys(received)])]
    .filter((field) => field !== 'signedQuoteData' && !(skipped.includes(field) && (received[field] ?? null) === null))
    .sort();
  const differences = fields.flatMap((field) => differencesOf(field, received[field], current[field]));
  if (differences.length) {
    const named = differences.slice(0, namedDifferences).join('; ') + (differences.length > namedDifferences ? '; ...' : '');
    throw invalidOrderArgs(
      `the quote differs from what this service quotes for it now (${named}): it was changed, or prices moved since it was issued${pricesNow(request, context)}; request a new quote`,
      { message: `changed fields: ${named}` },
    );
  }
}

/**
 * Where two values differ, as `path: sent X, now Y`: objects compared member by member, and null,
 * absent and an empty array as one, as the seal has them (quote/seal.ts).
 */
function differencesOf(path: string, sent: unknown, now: unknown): string[] {
  if (canonicalJson(given(sent)) === canonicalJson(given(now))) return [];
  if (isObject(sent) && isObject(now))
    return [...new Set([...Object.keys(sent), ...Object.keys(now)])]
      .sort()
      .flatMap((member) => differencesOf(`${path}.${member}`, sent[member], now[member]));
  const shown = (value: unknown) =>
    value === undefined || value === null ? 'absent' : isObject(value) || Array.isArray(value) ? 'changed' : String(value);
  return [`${path}: sent ${shown(sent)}, now ${shown(now)}`];
}

const given = (value: unknown) => (value === undefined || (Array.isArray(value) && value.length === 0) ? null : value);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The route's tokens' current USD prices, for the refusal's message. */
function pricesNow(request: QuoteRequest, context: QuoteEngineContext): string {
  const route = context.catalogue.route(request.srcChain, request.srcToken, request.dstChain, request.dstToken);
  if (!route) return '';
  const priced = [route.src, route.dst].flatMap((token) => {
    const price = context.prices.usdPrice(token);
    return price === undefined ? [] : [`${token.symbol} on ${token.chain} ${formatScaled(price, 2)} USD`];
  });
  return priced.length ? ` (prices now: ${priced.join(', ')})` : '';
}

/** The get-quote parameters a quote was issued for, read from its fields. */
function requestOf(route: 'offramp' | 'tokenSwap', quote: ReceivedQuote, context: QuoteEngineContext): QuoteRequest {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return {
    srcChain: quote.inputAmount.chain,
    srcToken: quote.inputAmount.address,
    dstChain: quote.outputAmount.chain,
    dstToken: quote.outputAmount.address,
    amount: quote.inputAmount.amount,
    recipient: quote.recipient,
    slippage: String(quote.slippage),
    sender: text(quote.sender),
    refundAddress: text(quote.refundAddress) ?? (route === 'offramp' ? text(quote.ownerAddress) : undefined),
    affiliates: route === 'tokenSwap' ? tokenSwapAffiliate(quote) : offrampAffiliates(quote, context),
  };
}

function tokenSwapAffiliate(quote: ReceivedQuote): string | undefined {
  const affiliate = quote.affiliate as { address?: unknown; bps?: unknown } | null | undefined;
  return affiliate ? `${String(affiliate.address)}:${String(affiliate.bps)}` : undefined;
}

/**
 * An offramp quote names each affiliate's fee, not its bps: the bps are the smallest whole number
 * that gives that fee on the converted input (any bps giving the same fee gives the same quote).
 */
function offrampAffiliates(quote: ReceivedQuote, context: QuoteEngineContext): string | undefined {
  const affiliates = quote.affiliates as Array<{ address: string; fee: Amount }> | null | undefined;
  if (!affiliates?.length) return undefined;
  const { inputAmount: input, outputAmount: output } = quote;
  const route = context.catalogue.route(input.chain, input.address, output.chain, output.address);
  if (!route || !/^\d+$/.test(input.amount)) return undefined;
  const gross = grossOutput(route, BigInt(input.amount), rate(context, route));
  return affiliates
    .map(({ address, fee }) => {
      const wanted = /^\d+$/.test(fee?.amount ?? '') ? BigInt(fee.amount) : 0n;
      const affiliateBps = gross > 0n ? (wanted * 10_000n + gross - 1n) / gross : 0n;
      return `${address}:${bps(gross, Number(affiliateBps)) === wanted ? affiliateBps : 0}`;
    })
    .join(',');
}
