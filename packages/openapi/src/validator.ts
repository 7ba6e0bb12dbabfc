/**
 * JSON Schema 2020-12 validation against the bundle, with Ajv. One place for
 * every package that checks a value against the document (the contract tests,
 * the server, the example checks), so that all of them read the schemas alike.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './index.js';
import { escapePointer } from './pointer.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** OpenAPI keywords and our extensions that may stand in a schema; Ajv must know them to stay strict about the rest. */
const annotationKeywords = ['example', 'discriminator', 'xml', 'externalDocs'];

/** Every `x-...` key used anywhere in the document, so Ajv accepts them as annotations. */
function extensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) extensionKeywords(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return found;
}

export interface SchemaValidator {
  /** Validates a value against the schema at a JSON pointer of the document, e.g. `#/components/schemas/GatewayQuoteV4`. */
  validate(pointer: string, value: unknown): { valid: boolean; errors: ErrorObject[] };
  /** A compiled validator for the schema at a pointer (compiled once, then cached). */
  compile(pointer: string): ValidateFunction;
  /** The pointer of a component schema by name. */
  schemaPointer(name: string): string;
  /** Ajv's errors as one readable line each. */
  describe(errors: ErrorObject[]): string;
}

const documentId = 'https://swap-gateway.invalid/openapi.json';

export function createSchemaValidator(document: OpenApiDocument): SchemaValidator {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    validateFormats: true,
    // Without Ajv's pass that tidies the generated code: every process that serves, mocks or tests the
    // API compiles the document, a third faster so (packages/server/bench/README.md, "Measurements behind the code").
    code: { optimize: false },
  });
  addFormats(ajv);
  ajv.addVocabulary([...annotationKeywords, ...extensionKeywords(document)]);
  // The document is registered whole, so `#/components/schemas/...` references resolve inside it.
  // It is not itself a schema: only the pointers compiled below are used as schemas, and its
  // top-level `components` and `paths` are known to Ajv as keywords that validate nothing.
  ajv.addVocabulary(['components', 'paths']);
  ajv.addSchema({ $id: documentId, $defs: {}, ...pick(document, ['components', 'paths']) }, undefined, true, false);
  const cache = new Map<string, ValidateFunction>();
  const compile = (pointer: string) => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };
  return {
    compile,
    validate(pointer, value) {
      const validate = compile(pointer);
      const valid = validate(value) as boolean;
      return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
    },
    schemaPointer: (name) => `#/components/schemas/${escapePointer(name)}`,
    describe: (errors) =>
      errors.map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`).join('\n'),
  };
}

function pick<T extends object>(object: T, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => keys.includes(key)));
}
