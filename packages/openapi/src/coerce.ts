/**
 * Query and path parameters arrive as text; their schemas may ask for a number, an integer or a
 * boolean. This is the one rule that turns the text into the value checked against the schema, for
 * the server, the mock and the contract suite alike.
 *
 * OpenAPI 3.1 leaves the text form of a number in a URL to the implementation (its parameter styles
 * come from RFC 6570, which only expands strings). The rule here is the plain decimal the document's
 * own examples use (`limit: 20`) and every client writes for an integer (`String(20)`): an optional
 * minus, digits, and an optional fraction. Anything else stays text and so fails a numeric schema:
 * `0x10`, `1e2`, ` 5`, `5.`, `+5`, `Infinity` and the empty string are not numbers on this API.
 * Booleans are the words `true` and `false`. The schema then decides the rest (an integer refuses
 * `2.5`, a minimum refuses `0`).
 */

const decimal = /^-?\d+(\.\d+)?$/;

/** The JSON types a schema names in `type` (a string or a list). */
function typesOf(schema: Record<string, unknown> | undefined): string[] {
  const type = schema?.type;
  return typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The value a parameter's text stands for under its (resolved) schema; text that is no such value stays text. */
export function coerceParameter(schema: Record<string, unknown> | undefined, text: string): string | number | boolean {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && decimal.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
