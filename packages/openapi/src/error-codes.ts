/**
 * The codes of an error-code schema (`GatewayErrorCodeV4`, `GatewayErrorCodeV3`): read once for the
 * docs' errors reference and the server's check of its status table.
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
