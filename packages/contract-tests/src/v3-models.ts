/**
 * How a V3 integration hands a quote back to `/v3/create-order`: through models generated from the
 * described V3 shapes (GatewayQuoteV3's branches), so an optional field that is null comes back
 * absent and a field its model does not have is dropped. The V3 offramp model names the owner
 * (`ownerAddress`, required) and has neither `refundAddress` nor `signedQuoteData`; the V3
 * token-swap model has neither either; the onramp model keeps `signedQuoteData`. The models' fields
 * are read from the document, so the shape follows it.
 */
import { resolveRef } from '@swap-gateway/openapi';
import type { GatewayRoute } from '@swap-gateway/types';
import { document } from './document.js';
import type { Quote } from './flows.js';

type Schema = { properties?: Record<string, unknown>; allOf?: unknown[]; oneOf?: unknown[] };

/** The top-level fields of a schema (its properties, and those of its allOf members). */
function fieldsOf(node: unknown): string[] {
  const schema = resolveRef<Schema>(document, node);
  return [...Object.keys(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap(fieldsOf)];
}

/** Each route's V3 quote model: the inner schema of each GatewayQuoteV3 branch. */
const v3Fields = Object.fromEntries(
  (resolveRef<Schema>(document, { $ref: '#/components/schemas/GatewayQuoteV3' }).oneOf ?? []).flatMap((branch) => {
    const wrapper = resolveRef<Schema>(document, branch);
    return Object.entries(wrapper.properties ?? {}).map(([route, inner]) => [route, new Set(fieldsOf(inner))]);
  }),
) as Record<GatewayRoute, Set<string>>;

/** The quote as a V3 integration sends it to `/v3/create-order`; an offramp's owner is the user, who gets the refund. */
export function throughV3Models(quote: Quote): Quote {
  const [route] = Object.keys(quote) as [GatewayRoute];
  const inner = quote[route]!;
  const owned = route === 'offramp' ? { ...inner, ownerAddress: inner.ownerAddress ?? inner.refundAddress } : inner;
  const fields = Object.entries(owned).filter(([field, value]) => value !== null && value !== undefined && v3Fields[route].has(field));
  return { [route]: Object.fromEntries(fields.map(([field, value]) => [field, withoutNulls(value)])) };
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== null)
        .map(([key, item]) => [key, withoutNulls(item)]),
    );
  return value;
}
