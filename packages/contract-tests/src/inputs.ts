/**
 * Requests built from the document: from its own examples, and generated from its schemas (with
 * json-schema-faker, seeded, so that every run sends the same inputs). A generated body is kept only
 * if it validates against the request schema, so "valid input" means what Ajv says it means.
 */
import { JSONSchemaFaker } from 'json-schema-faker';
import { coerceParameter, containsNul, type Operation } from '@swap-gateway/openapi';
import { exampleValues, fillPath, firstMedia, inlineSchema, validator } from './document.js';
import type { GatewayRequest } from './gateway.js';

/** The request the document's examples describe: every parameter's `example`, and the named (or first) body example. */
export function exampleRequest(op: Operation, bodyExample?: string): GatewayRequest {
  const values = (location: string) =>
    Object.fromEntries(
      op.parameters
        .filter((parameter) => parameter.in === location && parameter.example !== undefined)
        .map((parameter) => [parameter.name, String(parameter.example)]),
    );
  const examples = exampleValues(op.requestBody);
  const body = bodyExample !== undefined ? examples[bodyExample] : Object.values(examples)[0];
  return { method: op.method, path: fillPath(op.path, values('path')), query: values('query'), ...(op.requestBody && { body }) };
}

/** The operation's path with one parameter's segment given as it is (already encoded, or malformed on purpose) and the others their examples. */
export function pathWith(op: Operation, name: string, segment: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, each: string) =>
    each === name ? segment : encodeURIComponent(String(op.parameters.find((other) => other.name === each)?.example ?? '')),
  );
}

/** A small deterministic PRNG (mulberry32), so that generated inputs are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fake(schema: Record<string, unknown>, random: () => number): unknown {
  JSONSchemaFaker.option({
    random,
    alwaysFakeOptionals: false,
    optionalsProbability: 0.5,
    useExamplesValue: false,
    useDefaultValue: false,
    maxItems: 3,
    maxLength: 512,
  });
  return JSONSchemaFaker.generate(schema as never);
}

/**
 * `count` requests with generated values for every required parameter (and some optional ones) and,
 * where there is a body, a generated body that validates against the request schema.
 */
export function generatedRequests(op: Operation, count: number, seed: number): GatewayRequest[] {
  const random = seededRandom(seed);
  const media = firstMedia(op.requestBody);
  const bodySchema = media?.schema && inlineSchema(media.schema);
  const bodyPointer = media?.schemaPointer;
  const requests: GatewayRequest[] = [];
  for (let attempt = 0; requests.length < count && attempt < count * 20; attempt++) {
    const path: Record<string, string> = {};
    const query: Record<string, string> = {};
    for (const parameter of op.parameters) {
      if (!parameter.required && random() < 0.5) continue;
      const value = String(fake(inlineSchema(parameter.schema), random));
      if (parameter.in === 'path') path[parameter.name] = value;
      else if (parameter.in === 'query') query[parameter.name] = value;
    }
    let body: unknown;
    if (bodySchema && bodyPointer) {
      body = fake(bodySchema, random);
      if (!validator.validate(bodyPointer, body).valid) continue;
    }
    requests.push({ method: op.method, path: fillPath(op.path, path), query, ...(bodySchema && { body }) });
  }
  if (requests.length < count) throw new Error(`could generate only ${requests.length} of ${count} valid requests for ${op.operationId}`);
  return requests;
}

/**
 * One input at the edge of what a request can carry, and whether the document allows it: a test
 * holds an input outside the document to a 4xx, and every answer to the contract check.
 */
export interface EdgeCase {
  what: string;
  request: GatewayRequest;
  /**
   * Outside the document (fails the schema, or cannot be decoded): a 2xx would be wrong. Inside it:
   * a target that only knows the schemas must accept it. Undefined when the document leaves it
   * open (a repeated parameter): only the contract check applies.
   */
  invalid: boolean | undefined;
}

interface EdgeString {
  name: string;
  value: string;
  /** Put into the URL as it is, not percent-encoded: the value is malformed percent-encoding itself. */
  raw?: boolean;
}

/** Values for path and query parameters: control characters, bad percent-encoding, length, huge numbers, unicode. */
const edgeStrings: EdgeString[] = [
  { name: 'an empty value', value: '' },
  { name: 'a NUL byte', value: '\u0000' },
  { name: 'a NUL byte inside', value: 'ab\u0000cd' },
  { name: 'control characters', value: '\u0001\u0008\u001b\u007f' },
  { name: 'CR LF', value: 'a\r\nx-injected: 1' },
  { name: 'unicode (accents, emoji, RTL override, BOM)', value: 'ünï©ødé 🙂 \u202e\ufeff' },
  { name: 'an encoded slash and dot segments', value: '../a/..' },
  { name: 'a 10,000-character string', value: 'a'.repeat(10_000) },
  { name: 'a 20,000-digit number', value: '9'.repeat(20_000) },
  { name: '1e308', value: '1e308' },
  { name: '1e400 (beyond a double)', value: '1e400' },
  { name: '-0', value: '-0' },
  { name: 'a hexadecimal number', value: '0x10' },
  { name: 'bad percent-encoding %ZZ', value: '%ZZ', raw: true },
  { name: 'a lone %', value: 'a%', raw: true },
  { name: 'overlong UTF-8 %C0%AF', value: '%C0%AF', raw: true },
  { name: 'a byte that is not UTF-8 %FF', value: '%FF', raw: true },
  { name: 'an encoded NUL %00', value: '%00', raw: true },
];

const decodes = (text: string) => {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

/** `count` of the items, chosen by a seeded Fisher-Yates shuffle (the same on every run), in their original order. */
function sample<T>(items: T[], count: number, seed: number): T[] {
  if (items.length <= count) return items;
  const random = seededRandom(seed);
  const indexes = items.map((_, index) => index);
  for (let last = indexes.length - 1; last > 0; last--) {
    const other = Math.floor(random() * (last + 1));
    [indexes[last], indexes[other]] = [indexes[other]!, indexes[last]!];
  }
  return indexes
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((index) => items[index]!);
}

/**
 * Edge cases sent per operation at most. The suite shares the target's per-address rate limit
 * (1,200 requests a minute on the sandbox server) with the other tests, and stays well under a
 * minute per target.
 */
export const edgeCasesPerOperation = 80;

/**
 * The document's example request with one path or query parameter at a time replaced by each edge
 * value, and for query parameters the shapes a string parameter should not have: repeated (an
 * array), bracketed (`name[]=`, `name[key]=`, an object to qs-style parsers). At most
 * `edgeCasesPerOperation` of them, a seeded sample.
 */
/** The request line and headers the server and the mock read (Node's limit); beyond it `answerClientError` of @swap-gateway/openapi answers. */
const requestLineLimit = 16 * 1024;

export function edgeParameterCases(op: Operation, seed: number): EdgeCase[] {
  const base = exampleRequest(op);
  const cases: EdgeCase[] = [];
  for (const parameter of op.parameters.filter(({ in: location }) => location === 'path' || location === 'query')) {
    for (const { name, value, raw } of edgeStrings) {
      const decoded = raw ? (decodes(value) ? decodeURIComponent(value) : undefined) : value;
      // The value a target reads from the text is the document's one rule (coerceParameter): `0x10` or `1e2` is no number.
      // A NUL character, or a request line beyond the 16 KiB the server and the mock read, is a request that cannot be read.
      const invalid =
        decoded === undefined ||
        containsNul(decoded) ||
        value.length > requestLineLimit ||
        !validator.validate(parameter.schemaPointer, coerceParameter(parameter.schema, decoded)).valid;
      const what = `${parameter.name} = ${name}`;
      if (parameter.in === 'path') {
        cases.push({ what, request: { ...base, path: pathWith(op, parameter.name, raw ? value : encodeURIComponent(value)) }, invalid });
      } else {
        const { [parameter.name]: _replaced, ...query } = base.query ?? {};
        cases.push({
          what,
          request: raw
            ? { ...base, query, rawQuery: `${encodeURIComponent(parameter.name)}=${value}` }
            : { ...base, query: { ...query, [parameter.name]: value } },
          invalid,
        });
      }
    }
    if (parameter.in === 'query') {
      const { [parameter.name]: example, ...query } = base.query ?? {};
      const name = encodeURIComponent(parameter.name);
      const value = encodeURIComponent(String(example ?? parameter.example ?? 'x'));
      // Repeated, the parameter may fairly be read as its first or last value: only the contract check applies.
      cases.push({
        what: `${parameter.name} repeated`,
        request: { ...base, query, rawQuery: `${name}=${value}&${name}=${value}1` },
        invalid: undefined,
      });
      // Bracketed, it is another parameter's name to a plain parser: as if absent.
      for (const [shape, suffix] of [
        ['as an array', '%5B%5D'],
        ['as an object', '%5Bkey%5D'],
      ] as const) {
        cases.push({
          what: `${parameter.name} ${shape} (${parameter.name}${decodeURIComponent(suffix)}=)`,
          request: { ...base, query, rawQuery: `${name}${suffix}=${value}` },
          invalid: parameter.required,
        });
      }
    }
  }
  return sample(cases, edgeCasesPerOperation, seed);
}

/** JSON values put where the body example has a value: strings with NUL, controls and lone surrogates, length, huge numbers, the wrong type. */
const edgeJsonValues: Array<{ name: string; value: unknown }> = [
  { name: 'a NUL byte', value: '\u0000' },
  { name: 'control characters', value: 'a\u0001\u001b\u007fb' },
  { name: 'a lone surrogate', value: '\ud800' },
  { name: 'unicode', value: 'ünï©ødé 🙂 \u202e' },
  { name: 'a 10,000-character string', value: 'a'.repeat(10_000) },
  { name: 'a 400-digit string', value: '9'.repeat(400) },
  { name: '1e308', value: 1e308 },
  { name: 'an empty string', value: '' },
  { name: 'an array', value: ['a'] },
  { name: 'an object', value: { a: 'b' } },
  { name: 'null', value: null },
  { name: 'true', value: true },
];

/** Every place in a JSON value: its key path and the value there. */
function places(value: unknown, at: string[] = []): string[][] {
  if (!value || typeof value !== 'object') return [at];
  return [at, ...Object.entries(value).flatMap(([key, child]) => places(child, [...at, key]))];
}

function replaceAt(value: unknown, at: string[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [key, ...rest] = at as [string, ...string[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  copy[key] = replaceAt(copy[key], rest, replacement);
  return copy;
}

/**
 * Every body example of the operation with one place below the top level replaced by each edge
 * value: at most `edgeCasesPerOperation` of these, a seeded sample.
 */
export function edgeBodyCases(op: Operation, seed: number): EdgeCase[] {
  const pointer = firstMedia(op.requestBody)?.schemaPointer;
  if (!pointer) return [];
  const all = Object.entries(exampleValues(op.requestBody)).flatMap(([exampleName, example]) =>
    places(example)
      .filter((place) => place.length > 1)
      .flatMap((at) => edgeJsonValues.map(({ name, value }) => ({ exampleName, example, at, name, value }))),
  );
  return sample(all, edgeCasesPerOperation, seed).map(({ exampleName, example, at, name, value }) => {
    const body = replaceAt(example, at, value);
    return {
      what: `${exampleName}: ${at.join('.')} = ${name}`,
      request: { ...exampleRequest(op), body },
      invalid: containsNul(body) || !validator.validate(pointer, body).valid,
    };
  });
}
