/**
 * The open questions of the document for API review: every spot marked
 * `x-unspecified` (the description does not show it) or `x-inferred` (behaviour
 * forced a choice the description leaves open), with its sentence.
 */
import { pointerTo } from './pointer.js';

export interface OpenQuestion {
  kind: 'unspecified' | 'inferred';
  /** JSON pointer of the marked object in the bundle, e.g. `#/components/schemas/GatewayOrderInfoV3/properties/timestamp`. */
  pointer: string;
  /** The same place for a reader, e.g. `GET /v4/get-quote › responses › 400` or `GatewayOrderInfoV3 › timestamp`. */
  location: string;
  text: string;
}

const markers = { 'x-unspecified': 'unspecified', 'x-inferred': 'inferred' } as const;

/** Names the place of a pointer the way a reader of the docs would: operation or schema first, then the inner keys that carry meaning. */
function describe(segments: string[]): string {
  const [section, first, second, ...rest] = segments;
  const noise = new Set(['properties', 'content', 'application/json', 'schema', 'items', 'allOf', 'oneOf', 'anyOf']);
  // Array indices say nothing to a reader; status codes (the keys under `responses`) do.
  const inner = (keys: string[]) => keys.filter((key, index) => !noise.has(key) && (!/^\d+$/.test(key) || keys[index - 1] === 'responses'));
  if (section === 'paths' && first && second) return [`${second.toUpperCase()} ${first}`, ...inner(rest)].join(' › ');
  if (section === 'components' && second) return [second, ...inner(rest)].join(' › ');
  return inner(segments).join(' › ') || 'document';
}

export function listOpenQuestions(document: unknown): OpenQuestion[] {
  const found: OpenQuestion[] = [];
  const walk = (node: unknown, segments: string[]) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...segments, String(index)]));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key in markers && typeof value === 'string') {
        found.push({
          kind: markers[key as keyof typeof markers],
          pointer: pointerTo(segments),
          location: describe(segments),
          text: value.replace(/\s+/g, ' ').trim(),
        });
      } else if (key !== 'examples' && key !== 'example') {
        walk(value, [...segments, key]);
      }
    }
  };
  walk(document, []);
  return found;
}
