/** Small documents for the rule tests: one operation, its parameters, body and responses as given. */
import type { JsonDocument } from '../src/document.js';

/** Loose on purpose: the fixtures are literals, the engine reads them as JSON. */
type Schema = object;

export interface OperationSpec {
  method?: string;
  path?: string;
  parameters?: Schema[];
  request?: Schema;
  responses?: Record<string, Schema | undefined>;
  security?: Schema[];
  schemas?: Record<string, Schema>;
  tags?: Schema[];
}

export function documentWith(spec: OperationSpec): JsonDocument {
  const responses = Object.fromEntries(
    Object.entries(spec.responses ?? { '200': undefined }).map(([status, schema]) => [
      status,
      schema ? { description: status, content: { 'application/json': { schema } } } : { description: status },
    ]),
  );
  const operation: Record<string, unknown> = { operationId: 'op', responses };
  if (spec.parameters) operation.parameters = spec.parameters;
  if (spec.request) operation.requestBody = { required: true, content: { 'application/json': { schema: spec.request } } };
  if (spec.security) operation.security = spec.security;
  return {
    openapi: '3.1.0',
    info: { title: 'test', version: '1.0.0' },
    ...(spec.tags ? { tags: spec.tags } : {}),
    paths: { [spec.path ?? '/v1/thing']: { [spec.method ?? 'post']: operation } },
    components: { schemas: spec.schemas ?? {} },
  } as unknown as JsonDocument;
}

export const object = (properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  ...extra,
});
