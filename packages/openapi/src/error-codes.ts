/**
 * The codes of an error-code schema (`GatewayErrorCodeV4`, `GatewayErrorCodeV3`): read once for the
 * docs' errors reference and the server's check of its status table. And the detail shape
 * `GatewayErrorDetails` ties to a code (`x-detail-shapes-by-code`), read by every check of an error
 * body's `details`: the document's examples, the mock, the contract suite, the docs and the types.
 */
import { resolveRef } from './pointer.js';

/** A code and the annotations of the enum that lists it (absent where the schema gives none). */
export interface DocumentedErrorCode {
  code: string;
  /** `x-enumDescriptions` of the enum. */
  meaning: string | undefined;
  /** `x-introduced-in` of the enum. */
  introducedIn: string | undefined;
}

interface EnumSchema {
  enum?: unknown[];
  anyOf?: unknown[];
  oneOf?: unknown[];
  'x-introduced-in'?: Record<string, string>;
  'x-enumDescriptions'?: Record<string, string>;
}

/** Every code a component schema lists, through its `$ref`s and its `anyOf` and `oneOf` branches, in document order. */
export function documentedErrorCodes(
  document: { components: Record<string, Record<string, unknown>> },
  schemaName: string,
): DocumentedErrorCode[] {
  const found: DocumentedErrorCode[] = [];
  const walk = (node: unknown) => {
    const schema = resolveRef<EnumSchema>(document, node);
    for (const value of schema.enum ?? []) {
      const code = String(value);
      found.push({ code, meaning: schema['x-enumDescriptions']?.[code], introducedIn: schema['x-introduced-in']?.[code] });
    }
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(branch);
  };
  walk({ $ref: `#/components/schemas/${schemaName}` });
  return found;
}

/** The detail shape `GatewayErrorDetails` ties to a code. */
export interface CodeDetailShape {
  code: string;
  /** The `title` of the shape's alternative in `GatewayErrorDetails`. */
  title: string;
  /** The shape's fields, in document order. */
  fields: string[];
  /** JSON pointer of the alternative, for a schema validator. */
  pointer: string;
}

interface DetailsSchema {
  oneOf?: unknown[];
  'x-detail-shapes-by-code'?: Record<string, unknown>;
}

const detailsPointer = '#/components/schemas/GatewayErrorDetails';

/**
 * The detail shape of each code that `GatewayErrorDetails` names in `x-detail-shapes-by-code` (the
 * public gateway's TypeScript SDK reads these; inferred, see the schema), in document order. A code
 * it does not list has no shape fixed by any source. A title no alternative carries is an error of
 * the document, thrown.
 */
export function detailShapesByCode(document: { components: Record<string, Record<string, unknown>> }): Map<string, CodeDetailShape> {
  const details = resolveRef<DetailsSchema>(document, { $ref: detailsPointer });
  const alternatives = (details.oneOf ?? []).map((branch, index) => ({
    schema: resolveRef<{ title?: string; properties?: Record<string, unknown> }>(document, branch),
    pointer: `${detailsPointer}/oneOf/${index}`,
  }));
  const shapes = new Map<string, CodeDetailShape>();
  for (const [code, title] of Object.entries(details['x-detail-shapes-by-code'] ?? {})) {
    const alternative = alternatives.find(({ schema }) => schema.title === title);
    if (!alternative) throw new Error(`GatewayErrorDetails ties ${code} to ${String(title)}, which no alternative of it is titled`);
    shapes.set(code, {
      code,
      title: String(title),
      fields: Object.keys(alternative.schema.properties ?? {}),
      pointer: alternative.pointer,
    });
  }
  return shapes;
}

/**
 * How an error body's `details` miss its code's shape, or undefined when they have it, when the code
 * has no fixed shape, or when the body has no `details` (the field is optional). `null` is not a
 * code's shape.
 */
export function detailsShapeProblem(
  shapes: ReadonlyMap<string, CodeDetailShape>,
  validator: { validate(pointer: string, value: unknown): { valid: boolean } },
  body: unknown,
): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { code, details } = body as { code?: unknown; details?: unknown };
  const shape = typeof code === 'string' ? shapes.get(code) : undefined;
  if (!shape || details === undefined || validator.validate(shape.pointer, details).valid) return undefined;
  return `the details of ${shape.code} are not its shape ${shape.title} (${shape.fields.join(', ')}): ${JSON.stringify(details)}`;
}
