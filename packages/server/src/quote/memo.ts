/**
 * Quotes already computed, by their parameters. The quote engine is a function of get-quote's
 * parameters and of what stays fixed while the process runs (configuration, catalogue, the fee rate
 * read at start) or says when it changes (the price source's revision), so a quote asked for again
 * (a wallet refreshing the quote its user is looking at, an aggregator polling the same amounts) is
 * the same quote: only its id, expiry and seal are new. An entry keeps what issuing it again needs:
 * the quote's sealed form and its JSON text. A quote is kept when its parameters come a second time
 * (most are asked for once); a refusal is never kept.
 */
import type { RouteKind } from '../config/config.js';
import type { Route } from '../config/catalogue.js';
import type { QuoteRequest } from './engine.js';

/**
 * A quote as the memo keeps it: text and bytes only, not the quote's two dozen objects, which the
 * garbage collector would copy and trace for as long as the quote is kept.
 */
export interface ComputedQuote {
  route: RouteKind;
  config: Route;
  /** The quote's sealed form (QuoteSeal.form); bytes once kept. */
  form: string | Buffer;
  /** `{"<route>":{<the quote's members>,"signedQuoteData":"` : a seal and `"}}` complete the answer. */
  jsonHead: string;
}

/** Every parameter the engine reads, in one order. */
const parameterNames = [
  'srcChain',
  'dstChain',
  'srcToken',
  'dstToken',
  'amount',
  'recipient',
  'sender',
  'refundAddress',
  'slippage',
  'affiliates',
] as const satisfies ReadonlyArray<keyof QuoteRequest>;

export class QuoteMemo {
  private readonly quotes = new Map<string, ComputedQuote>();
  /** Parameters asked for once (most are never asked for again): a quote is kept the second time. */
  private readonly askedOnce = new Set<string>();
  private revision: number | undefined;

  constructor(
    /** Quotes kept (each a few kilobytes), and as many parameters asked for once; the oldest leave first. */
    private readonly capacity: number,
    private readonly currentRevision: () => number,
  ) {}

  /** The quote for these parameters: the one kept, or `compute`'s. */
  quote(request: QuoteRequest, compute: () => ComputedQuote): ComputedQuote {
    this.checkRevision();
    const key = memoKey(request);
    const kept = this.quotes.get(key);
    if (kept) return kept;
    const computed = compute();
    if (this.askedOnce.delete(key)) {
      keepAtMost(this.quotes, this.capacity);
      this.quotes.set(key, { ...computed, form: typeof computed.form === 'string' ? ownBytes(computed.form) : computed.form });
    } else {
      keepAtMost(this.askedOnce, this.capacity);
      this.askedOnce.add(key);
    }
    return computed;
  }

  /** Prices moved: every quote kept is forgotten. */
  private checkRevision(): void {
    const revision = this.currentRevision();
    if (revision !== this.revision) {
      this.quotes.clear();
      this.askedOnce.clear();
    }
    this.revision = revision;
  }
}

/**
 * The form as bytes, which the seal's hash reads on every answer without encoding them again; in a
 * buffer of their own, since a slice of Node's shared 8 KiB pool would keep the whole slab alive.
 */
function ownBytes(form: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(form));
  bytes.write(form);
  return bytes;
}

/** Makes room for one more: a Map or Set iterates in insertion order, so the oldest goes. */
function keepAtMost(entries: Map<string, unknown> | Set<string>, capacity: number): void {
  if (entries.size >= capacity) entries.delete(entries.keys().next().value!);
}

/**
 * The parameters as one string, each value prefixed by its length and an absent one by `-`, so that
 * two requests have one key only when every parameter is the same: a quote issued from the memo is
 * not checked again.
 */
function memoKey(request: QuoteRequest): string {
  let key = '';
  for (const name of parameterNames) {
    const value = request[name];
    key += value === undefined ? '-' : `${value.length}:${value}`;
  }
  return key;
}
