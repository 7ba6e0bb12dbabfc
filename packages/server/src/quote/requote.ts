/**
 * Verifying an offramp or token-swap quote that comes back without its seal. Clients generated from
 * the public V4 document pass quotes through models that have no `signedQuoteData` (nor
 * `ownerAddress`) for these routes, so create-order rebuilds the get-quote request from the quote's
 * own fields, quotes it again, and accepts the quote only when every value equals the new quote's
 * (null and absent being one value; the fields such a client drops are not compared when absent).
 * Prices come from the configured price source, so an unchanged quote re-quotes to itself; when
 * the price has moved, the client is told to request a new quote.
 */
import { invalidOrderArgs } from '../errors.js';
import { bps } from './amounts.js';
import { computeQuote, grossOutput, type QuoteEngineContext, type QuoteRequest } from './engine.js';
import { canonicalJson } from './seal.js';

type Amount = { amount: string; address: string; chain: string };
export type ReceivedQuote = Record<string, unknown> & { inputAmount: Amount; outputAmount: Amount; recipient: string; slippage: string | number };

/** Fields a client generated from the public V4 document does not send back for these routes. */
const droppedByPublicModels = ['signedQuoteData', 'ownerAddress'];

/** Throws INVALID_ORDER_ARGS unless the quote is what get-quote answers for it now. */
export function requote(route: 'offramp' | 'tokenSwap', received: ReceivedQuote, context: QuoteEngineContext): void {
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
  const route = context.catalogue.route(quote.inputAmount.chain, quote.inputAmount.address, quote.outputAmount.chain, quote.outputAmount.address);
  if (!route || !/^\d+$/.test(quote.inputAmount.amount)) return undefined;
  const gross = grossOutput(context, route, BigInt(quote.inputAmount.amount));
  return affiliates
    .map(({ address, fee }) => {
      const wanted = /^\d+$/.test(fee?.amount ?? '') ? BigInt(fee.amount) : 0n;
      const rate = gross > 0n ? (wanted * 10_000n + gross - 1n) / gross : 0n;
      return `${address}:${bps(gross, Number(rate)) === wanted ? rate : 0}`;
    })
    .join(',');
}
