/**
 * Quotes already computed, by their parameters. The quote engine is a function of get-quote's
 * parameters and of what stays fixed while the process runs (configuration, catalogue, the fee rate
 * read at start: see QuoteEngineContext) or says when it changes (the price source's revision), so
 * a quote asked for again (a wallet refreshing the quote its user is looking at, an aggregator
 * polling the same amounts) is the same quote: only its id, expiry and seal are new. An entry keeps
 * what issuing it again needs: the quote's sealed form and its JSON text. A quote is kept when its
 * parameters come a second time (most are asked for once); a refusal is never kept. What is kept is
 * bounded in bytes, the parameters asked for once in number, the least recently used leaving first.
 */
import { LRUCache } from 'lru-cache';
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

/** Every parameter of a quote request, in one order: the compiler refuses this list without one of them. */
const parameterNames = Object.keys({
  srcChain: true,
  dstChain: true,
  srcToken: true,
  dstToken: true,
  amount: true,
  recipient: true,
  sender: true,
  refundAddress: true,
  slippage: true,
  affiliates: true,
} satisfies Record<keyof QuoteRequest, true>) as Array<keyof QuoteRequest>;

export interface QuoteMemoLimits {
  /** Bytes of kept quotes (their JSON text, sealed form and key). */
  quoteBytes: number;
  /** Parameters asked for once that are remembered. */
  askedOnce: number;
}

export class QuoteMemo {
  private readonly quotes: LRUCache<string, ComputedQuote>;
  /**
   * Parameters asked for once (most are never asked for again), by a 30-bit hash of their key: a
   * small integer takes no memory of its own, where keeping each key would hand the garbage
   * collector tens of thousands of strings to promote and drop again (a stream of new parameters
   * then cost 10% more CPU per quote). Two keys with one hash only keep a quote a request early.
   */
  private readonly askedOnce: LRUCache<number, true>;
  private revision: number | undefined;

  constructor(
    limits: QuoteMemoLimits,
    private readonly currentRevision: () => number,
  ) {
    // An entry larger than the whole budget is not kept (lru-cache refuses it).
    this.quotes = new LRUCache({ maxSize: limits.quoteBytes });
    this.askedOnce = new LRUCache({ max: limits.askedOnce });
  }

  /** The quote for these parameters: the one kept, or `compute`'s. */
  quote(request: QuoteRequest, compute: () => ComputedQuote): ComputedQuote {
    this.checkRevision();
    const key = memoKey(request);
    const kept = this.quotes.get(key);
    if (kept) return kept;
    const computed = compute();
    const hash = hashOf(key);
    if (this.askedOnce.delete(hash)) {
      const form = typeof computed.form === 'string' ? ownBytes(computed.form) : computed.form;
      // A character a byte: V8 keeps text without characters beyond Latin-1 so, and quotes are ASCII.
      this.quotes.set(key, { ...computed, form }, { size: key.length + computed.jsonHead.length + form.length });
    } else {
      this.askedOnce.set(hash, true);
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

/** FNV-1a over the key's UTF-16 code units, cut to 30 bits: a small integer in V8. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash & 0x3fffffff;
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
