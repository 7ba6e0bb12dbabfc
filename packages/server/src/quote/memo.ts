/**
 * Quote plans already made, by every parameter of get-quote but the open ones (the amount and the
 * parties' addresses, see OpenParameters in quote/engine.ts). The quote engine is a function of the
 * parameters and of what stays fixed while the process runs (configuration, catalogue, the fee rate
 * read at start: see QuoteEngineContext) or says when it changes (the price source's revision), so
 * the parameters of a quote asked for again (a wallet refreshing the quote its user is looking at,
 * a user trying amounts, another user of the same wallet on the same route, an aggregator polling)
 * have the same plan: its checks passed, its route found, its template written (quote/template.ts),
 * and a quote is its figures put in the template's holes. A plan is kept when its parameters come a
 * second time; parameters refused before their open ones are checked make no plan. What is kept is
 * bounded in bytes, the parameters asked for once in number, the least recently used leaving first.
 */
import { LRUCache } from 'lru-cache';
import type { RouteKind } from '../config/config.js';
import type { Route } from '../config/catalogue.js';
import type { OpenParameters, QuoteRequest } from './engine.js';
import type { QuoteTemplate } from './template.js';

/** A quote plan as the memo keeps it: what issuing a quote of any open parameters needs, and the last quote it wrote. */
export class IssuablePlan {
  /**
   * The last quote written: a wallet refreshing the quote its user is looking at asks for the same
   * one again. Its sealed form is made bytes when it is asked for again (the seal's hash then reads
   * them without encoding them again).
   */
  private last: { open: OpenParameters; json: string; form: string | Buffer } | undefined;

  constructor(
    readonly route: RouteKind,
    readonly config: Route,
    /** The figures of a quote of these open parameters, which it checks (QuotePlan.figures). */
    private readonly figures: (open: OpenParameters) => unknown,
    private readonly template: QuoteTemplate<unknown>,
  ) {}

  /** Bytes kept, about: the template's, and one quote's, which is about as large. */
  get size(): number {
    return 2 * this.template.size;
  }

  /** `{"<route>":<quote>}` as JSON text, and the quote's sealed form, for these open parameters. */
  quote(open: OpenParameters): { json: string; form: string | Buffer } {
    const { last } = this;
    if (last && sameOpenParameters(last.open, open)) {
      if (typeof last.form === 'string') last.form = ownBytes(last.form);
      return last;
    }
    // Only what the quote was written for is kept, not the request it came with.
    const { amount, recipient, sender, refundAddress } = open;
    const written = this.template.write(this.figures(open));
    this.last = { open: { amount, recipient, sender, refundAddress }, ...written };
    return this.last;
  }
}

const sameOpenParameters = (a: OpenParameters, b: OpenParameters) =>
  a.amount === b.amount && a.recipient === b.recipient && a.sender === b.sender && a.refundAddress === b.refundAddress;

type PlannedParameter = Exclude<keyof QuoteRequest, keyof OpenParameters>;

/** Every parameter of a quote request but the open ones, in one order: the compiler refuses this list without one of them. */
const plannedParameters = Object.keys({
  srcChain: true,
  dstChain: true,
  srcToken: true,
  dstToken: true,
  slippage: true,
  affiliates: true,
} satisfies Record<PlannedParameter, true>) as PlannedParameter[];

export interface QuoteMemoLimits {
  /** Bytes of kept plans (their templates' texts and figures, their last quotes, and their keys). */
  planBytes: number;
  /** Parameters asked for once that are remembered. */
  askedOnce: number;
}

export class QuoteMemo {
  private readonly plans: LRUCache<string, IssuablePlan>;
  /**
   * Parameters asked for once (most are never asked for again), by a 30-bit hash of their key: a
   * small integer takes no memory of its own, where keeping each key would hand the garbage
   * collector tens of thousands of strings to promote and drop again (a stream of new parameters
   * then cost 10% more CPU per quote). Two keys with one hash only keep a plan a request early.
   */
  private readonly askedOnce: LRUCache<number, true>;
  private revision: number | undefined;

  constructor(
    limits: QuoteMemoLimits,
    private readonly currentRevision: () => number,
  ) {
    // An entry larger than the whole budget is not kept (lru-cache refuses it).
    this.plans = new LRUCache({ maxSize: limits.planBytes });
    this.askedOnce = new LRUCache({ max: limits.askedOnce });
  }

  /** The plan for these parameters (the open ones aside): the one kept, or `make`'s. */
  plan(request: QuoteRequest, make: () => IssuablePlan): IssuablePlan {
    this.checkRevision();
    const key = memoKey(request);
    const kept = this.plans.get(key);
    if (kept) return kept;
    const made = make();
    const hash = hashOf(key);
    if (this.askedOnce.delete(hash)) this.plans.set(key, made, { size: key.length + made.size });
    else this.askedOnce.set(hash, true);
    return made;
  }

  /** Prices moved: every plan kept is forgotten. */
  private checkRevision(): void {
    const revision = this.currentRevision();
    if (revision !== this.revision) {
      this.plans.clear();
      this.askedOnce.clear();
    }
    this.revision = revision;
  }
}

/**
 * The planned parameters as one string, each value prefixed by its length and an absent one by `-`,
 * and whether the request has a sender and a refund address, so that two requests have one key only
 * when they have one plan: a plan from the memo is not checked again (but for the open parameters,
 * which its figures check).
 */
function memoKey(request: QuoteRequest): string {
  let key = `${request.sender === undefined ? '-' : 's'}${request.refundAddress === undefined ? '-' : 'r'}`;
  for (const name of plannedParameters) {
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
 * The form as bytes, in a buffer of their own: a slice of Node's shared 8 KiB pool would keep the
 * whole slab alive for as long as the plan keeps the quote.
 */
function ownBytes(form: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(form));
  bytes.write(form);
  return bytes;
}
