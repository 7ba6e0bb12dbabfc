/**
 * Requests built from the document: from its own examples, and generated from its schemas (with
 * json-schema-faker, seeded, so that every run sends the same inputs). A generated body is kept only
 * if it validates against the request schema, so "valid input" means what Ajv says it means.
 */
import { JSONSchemaFaker } from 'json-schema-faker';
import { fillPath, validator, type Operation } from './document.js';
import type { GatewayRequest } from './gateway.js';

/** The request the document's examples describe: every parameter's `example`, and the named (or first) body example. */
export function exampleRequest(op: Operation, bodyExample?: string): GatewayRequest {
  const values = (location: string) =>
    Object.fromEntries(op.parameters.filter((parameter) => parameter.in === location && parameter.example !== undefined).map((parameter) => [parameter.name, String(parameter.example)]));
  const examples = op.requestBody?.examples ?? {};
  const body = bodyExample !== undefined ? examples[bodyExample] : Object.values(examples)[0];
  return { method: op.method, path: fillPath(op.path, values('path')), query: values('query'), ...(op.requestBody && { body }) };
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
  JSONSchemaFaker.option({ random, alwaysFakeOptionals: false, optionalsProbability: 0.5, useExamplesValue: false, useDefaultValue: false, maxItems: 3, maxLength: 24 });
  return JSONSchemaFaker.generate(schema as never);
}

/**
 * `count` requests with generated values for every required parameter (and some optional ones) and,
 * where there is a body, a generated body that validates against the request schema.
 */
export function generatedRequests(op: Operation, count: number, seed: number): GatewayRequest[] {
  const random = seededRandom(seed);
  const bodySchema = op.requestBody?.schema;
  const bodyPointer = op.requestBody ? validator.requestBodyPointer(op.path, op.method) : undefined;
  const requests: GatewayRequest[] = [];
  for (let attempt = 0; requests.length < count && attempt < count * 20; attempt++) {
    const path: Record<string, string> = {};
    const query: Record<string, string> = {};
    for (const parameter of op.parameters) {
      if (!parameter.required && random() < 0.5) continue;
      const value = String(fake(parameter.schema, random));
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
