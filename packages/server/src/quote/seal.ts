/**
 * Tamper evidence for quotes. Every quote carries `signedQuoteData`: `v4.<payload>.<mac>`, where the
 * payload (base64url JSON) names the quote id, its route and its expiry, and the mac is a keyed
 * SHA-512/256 over the payload and the SHA-256 digest of the quote's sealed form (below). create-order
 * recomputes it: any edited field, or a quote this service did not issue, fails the check. The seal
 * is the whole proof, so no copy of the quote is stored; the secret is the configured one, or one
 * generated at first start and kept in the store (store/secret.ts).
 *
 * The sealed form is the quote's values along the route's member list (quote/sealed-fields.ts), so
 * key order in transit does not matter, and null and absent are one value: clients generated from
 * the document drop null fields when they pass a quote through their models. So are an empty array
 * and absent, for a member the document gives as an array: some drop empty arrays too (Go's
 * `omitempty`), and this service issues such members as arrays, never null.
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import type { RouteKind } from '../config/config.js';
import type { SealedField, SealedFields } from './sealed-fields.js';

export interface QuoteSealPayload {
  /** Quote id: the order made from the quote keeps it, and a second order with it is a duplicate. */
  id: string;
  route: RouteKind;
  /** Expiry, Unix milliseconds. */
  exp: number;
  /** An onramp's refund address: V3's onramp model has no such member, so a V3 client sends the quote without it. */
  refundAddress?: string;
}

/** The quote as issued: with the refund address its seal names, when it came back without one. */
export function asIssued<Quote extends { refundAddress?: unknown }>(quote: Quote, payload: QuoteSealPayload | undefined): Quote {
  return payload?.refundAddress !== undefined && quote.refundAddress == null ? { ...quote, refundAddress: payload.refundAddress } : quote;
}

/** What the seal of a quote names: its id, route and expiry, and an onramp's refund address. */
export function sealPayload(route: RouteKind, quote: object, id: string, exp: number): QuoteSealPayload {
  const { refundAddress } = quote as { refundAddress?: unknown };
  return route === 'onramp' && typeof refundAddress === 'string' ? { id, route, exp, refundAddress } : { id, route, exp };
}

export class QuoteSeal {
  /** The seal's own key, derived from the secret: 43 base64url characters. */
  private readonly key: string;

  constructor(
    secret: string,
    private readonly fields: SealedFields,
  ) {
    this.key = createHmac('sha256', secret).update('quote-seal').digest('base64url');
  }

  /** The SHA-256 of the quote's sealed form (below): what `signature` covers of the quote, the same for every seal of it. */
  formDigest(route: RouteKind, quote: object): string {
    return hash('sha256', sealedForm(this.fields[route], quote as Record<string, unknown>), 'base64url');
  }

  /** `signedQuoteData` for a quote of this form digest. */
  signature(payload: QuoteSealPayload, formDigest: string): string {
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `v4.${encoded}.${this.mac(encoded, formDigest)}`;
  }

  /**
   * The payload of an untouched quote, or undefined when the quote or its seal was changed. A quote
   * sent back without the refund address its payload names is opened with that one (the mac covers
   * the payload, so it is the one issued).
   */
  open(route: RouteKind, quote: Record<string, unknown>): QuoteSealPayload | undefined {
    const { signedQuoteData } = quote;
    if (typeof signedQuoteData !== 'string') return undefined;
    const [version, encoded, mac] = signedQuoteData.split('.');
    if (version !== 'v4' || !encoded || !mac) return undefined;
    let payload: QuoteSealPayload;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as QuoteSealPayload;
    } catch {
      return undefined;
    }
    if (payload?.route !== route) return undefined;
    const expected = Buffer.from(this.mac(encoded, this.formDigest(route, asIssued(quote, payload))));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? payload : undefined;
  }

  /**
   * The key first, then the message: SHA-512/256, a truncated SHA-512, has no length extension, so a
   * keyed hash needs no HMAC nesting. One call of the one-shot `hash`, where createHmac cost 7 µs a
   * quote more; SHA3-256 cost 1.5 µs a call more, 0.5% of a get-quote (bench/README.md).
   */
  private mac(encodedPayload: string, formDigest: string): string {
    return hash('sha512-256', `${this.key}.${encodedPayload}.${formDigest}`, 'base64url');
  }
}

/**
 * A quote's values along its member list, each tagged with its type: `~` null or absent, `s<length>:`
 * a string, `n<number>;`, `t`/`f`, `{` an object's members in list order, `[<count>;` an array's
 * items; a value of a shape the list does not give its member (an object where the document has a
 * string, say) is sealed whole as `j<length>:<canonical JSON>`. Reading it back along the same
 * list gives the values again, so two quotes with one sealed form have the same members' values.
 */
export function sealedForm(fields: readonly SealedField[], record: Record<string, unknown>): string {
  let text = '';
  for (const field of fields) text += sealedValue(field, record[field.name]);
  return text;
}

function sealedValue(field: SealedField, value: unknown): string {
  if (value === null || value === undefined) return field.items ? '[0;' : '~';
  switch (typeof value) {
    case 'string':
      return `s${value.length}:${value}`;
    case 'number':
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
  }
  const array = Array.isArray(value);
  if (field.members && !array && typeof value === 'object') return `{${sealedForm(field.members, value as Record<string, unknown>)}`;
  if (field.items && array) {
    let text = `[${value.length};`;
    const item: SealedField = { name: '', members: field.items };
    for (const element of value) text += sealedValue(item, element);
    return text;
  }
  const json = canonicalJson(value);
  return `j${json.length}:${json}`;
}

/**
 * JSON with object keys sorted at every level and without null members, for the sealed form's
 * reasons (above). What compares a re-quoted quote with the one received (quote/requote.ts) and
 * names it; in a seal, only a value of a shape the document does not give its member.
 */
export function canonicalJson(value: unknown): string {
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
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}
