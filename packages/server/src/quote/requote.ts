/**
 * Verifying an offramp or token-swap quote that comes back without its seal. Clients generated from
 * the public V4 document pass quotes through models that have no `signedQuoteData` (nor
 * `ownerAddress`) for these routes, so create-order rebuilds the get-quote request from the quote's
 * own fields, quotes it again, and accepts the quote only when every value equals the new quote's
 * (null and absent being one value; the fields such a client drops are not compared when absent).
 * Prices come from the configured price source, so an unchanged quote re-quotes to itself; when
 * the price has moved, the client is told to request a new quote.
 *
 * Such a quote is issued, in effect, at create-order: it cannot be stale, as its values are the
 * current ones. What it lacks is the id a sealed quote carries, which makes a retried create-order
 * a duplicate: its id is derived from the quote as quoted again and the quote-lifetime window it is
 * sent in (requotedQuoteIds), so the same quote sent again within one lifetime finds its order.
 */
import { createHash } from 'node:crypto';
import type { RouteKind } from '../config/config.js';
import { invalidOrderArgs } from '../errors.js';
import { bps } from './amounts.js';
import { computeQuote, grossOutput, rate, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { canonicalJson } from './seal.js';

type Amount = { amount: string; address: string; chain: string };
export type ReceivedQuote = Record<string, unknown> & {
  inputAmount: Amount;
  outputAmount: Amount;
  recipient: string;
  slippage: string | number;
};

/** Fields a client generated from the public V4 document does not send back for these routes. */
const droppedByPublicModels = ['signedQuoteData', 'ownerAddress'];

/** The quote as get-quote answers it now; throws INVALID_ORDER_ARGS unless the received one is that quote. */
export function requote(route: 'offramp' | 'tokenSwap', received: ReceivedQuote, context: QuoteEngineContext): Record<string, unknown> {
  const request = requestOf(route, received, context);
  let current: Record<string, unknown>;
  try {
    const issued = computeQuote(request, context);
    if (issued.route !== route) throw new Error(`the tokens make a ${issued.route} quote`);
    current = issued.quote;
  } catch (error) {
    throw invalidOrderArgs('the quote cannot be issued again as it is; request a new quote', { message: (error as Error).message });
  }
  const fields = [...new Set([...Object.keys(current), ...Object.keys(received)])]
    .filter((field) => !(droppedByPublicModels.includes(field) && (received[field] ?? null) === null))
    .filter((field) => field !== 'signedQuoteData')
    .sort();
  const changed = fields.filter((field) => canonicalJson(current[field] ?? null) !== canonicalJson(received[field] ?? null));
  if (changed.length) {
    throw invalidOrderArgs('the quote differs from what this service quotes for it; it was changed, or prices moved: request a new quote', {
      message: `changed fields: ${changed.join(', ')}`,
    });
  }
  return current;
}

/**
 * The quote ids of a re-quoted quote sent at `nowMs`: the id its order gets (of the current window
 * of `lifetimeMs`), then the previous window's. An order with either is the same quote sent again
 * less than one lifetime before (a client retrying after a timeout): a duplicate. One sent a whole
 * lifetime later or more makes a new order, as a quote requested again then would.
 */
export function requotedQuoteIds(route: RouteKind, current: Record<string, unknown>, nowMs: number, lifetimeMs: number): [string, string] {
  const window = Math.floor(nowMs / lifetimeMs);
  const form = canonicalJson(current);
  return [uuidOf(`${route}.${window}.${form}`), uuidOf(`${route}.${window - 1}.${form}`)];
}

/** A UUID (version 8: name-based, SHA-256) of a text. */
function uuidOf(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
  const route = context.catalogue.route(
    quote.inputAmount.chain,
    quote.inputAmount.address,
    quote.outputAmount.chain,
    quote.outputAmount.address,
  );
  if (!route || !/^\d+$/.test(quote.inputAmount.amount)) return undefined;
  const gross = grossOutput(route, BigInt(quote.inputAmount.amount), rate(context, route));
  return affiliates
    .map(({ address, fee }) => {
      const wanted = /^\d+$/.test(fee?.amount ?? '') ? BigInt(fee.amount) : 0n;
      const affiliateBps = gross > 0n ? (wanted * 10_000n + gross - 1n) / gross : 0n;
      return `${address}:${bps(gross, Number(affiliateBps)) === wanted ? affiliateBps : 0}`;
    })
    .join(',');
}
