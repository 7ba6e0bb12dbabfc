/**
 * Tamper evidence for quotes. Every quote carries `signedQuoteData`: `v1.<payload>.<mac>`, where the
 * payload (base64url JSON) names the quote id, its route and its expiry, and the mac is an
 * HMAC-SHA256 over the payload and the canonical JSON of the rest of the quote. create-order
 * recomputes it: any edited field, or a quote this service did not issue, fails the check. The seal
 * is the whole proof, so no copy of the quote is stored; the secret is the configured one, or one
 * generated at first start and kept in the store (store/secret.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RouteKind } from '../config/config.js';

export interface QuoteSealPayload {
  /** Quote id: the order made from the quote keeps it, and a second order with it is a duplicate. */
  id: string;
  route: RouteKind;
  /** Expiry, Unix milliseconds. */
  exp: number;
}

export class QuoteSeal {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('quote-seal').digest();
  }

  /** The quote with its `signedQuoteData` added. */
  seal<Q extends object>(quote: Q, payload: QuoteSealPayload): Q & { signedQuoteData: string } {
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return { ...quote, signedQuoteData: `v1.${encoded}.${this.mac(encoded, quote)}` };
  }

  /** The payload of an untouched quote, or undefined when the quote or its seal was changed. */
  open(route: RouteKind, quote: Record<string, unknown>): QuoteSealPayload | undefined {
    const { signedQuoteData, ...rest } = quote;
    if (typeof signedQuoteData !== 'string') return undefined;
    const [version, encoded, mac] = signedQuoteData.split('.');
    if (version !== 'v1' || !encoded || !mac) return undefined;
    const expected = Buffer.from(this.mac(encoded, rest));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as QuoteSealPayload;
      return payload.route === route ? payload : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(encodedPayload: string, quote: object): string {
    return createHmac('sha256', this.key).update(encodedPayload).update('.').update(canonicalJson(quote)).digest('base64url');
  }
}

/**
 * JSON with object keys sorted at every level, so that key order in transit does not matter, and
 * without null members: null and absent are one value of an optional field, and clients generated
 * from the document drop null fields when they pass a quote through their models.
 */
export function canonicalJson(value: unknown): string {
  // Hand-rolled loops and strings quoted without a JSON.stringify call where nothing needs escaping:
  // this runs over every quote get-quote seals and create-order opens, and a generic version was
  // most of get-quote's own work.
  if (typeof value === 'string') return jsonString(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) text += (index ? ',' : '') + (canonicalJson(value[index]) ?? '');
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || item === null) continue;
    text += `${text.length > 1 ? ',' : ''}${jsonString(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}

/** What JSON.stringify escapes: quote, backslash, control characters, surrogates (lone ones; pairs are left to it too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON must escape, so what this looks for.
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

const jsonString = (text: string): string => (needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`);
