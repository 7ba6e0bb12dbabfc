/**
 * The operations of a bundle, read once into one resolved shape: every `$ref` of a parameter,
 * body, response, header or example followed, path-level parameters merged, and the JSON pointer
 * of every schema so that the validator can check a value against it. The server's routes, the
 * mock's front, the contract suite and the docs all read the document through this list.
 */
import { DocumentError, escapePointer, pointerTo, resolveReference } from './pointer.js';

/** The operation keys of an OpenAPI 3.1 path item, in the order the specification lists them. */
export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export type Schema = Record<string, unknown>;
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  description: string | undefined;
  /** The parameter's `example`, if it has one. */
  example: unknown;
  /** The parameter's schema, its `$ref` followed (references inside it are left as they are). */
  schema: Schema;
  /** Where that schema stands in the document, for `validator.validate` and `validator.compile`. */
  schemaPointer: string;
  /** The parameter object, its `$ref` followed, and where it lives (a component, when referenced). */
  definition: Record<string, unknown>;
  pointer: string;
}

export interface Example {
  summary: string | undefined;
  description: string | undefined;
  value: unknown;
}

/** One media type of a body: its schema and named examples (a lone `example` is named `example`). */
export interface MediaContent {
  schema: Schema | undefined;
  schemaPointer: string | undefined;
  examples: Record<string, Example>;
}

export interface RequestBody {
  required: boolean;
  description: string | undefined;
  /** By media type, in document order. */
  content: Record<string, MediaContent>;
  pointer: string;
}

export interface ResponseHeader {
  name: string;
  required: boolean;
  schema: Schema | undefined;
  schemaPointer: string | undefined;
  pointer: string;
}

export interface Response {
  /** As the document writes it: `200`, `4XX` or `default`. */
  status: string;
  description: string;
  content: Record<string, MediaContent>;
  headers: ResponseHeader[];
  /** The response object, its `$ref` followed, and where it lives. */
  definition: Record<string, unknown>;
  pointer: string;
}

export interface Operation {
  operationId: string;
  /** As a request carries it: `GET`, `POST`... */
  method: Uppercase<HttpMethod>;
  /** The document's path template, e.g. `/v4/get-order/{id}`. */
  path: string;
  /** The first path segment when it names a version (`v4` for `/v4/get-quote`). */
  version: string | undefined;
  summary: string | undefined;
  description: string | undefined;
  /** Path-level parameters first; an operation's own parameter with the same `in` and `name` replaces one. */
  parameters: Parameter[];
  requestBody?: RequestBody;
  /** By status, in document order. */
  responses: Record<string, Response>;
  /** The operation object as it stands in the bundle, and its pointer. */
  definition: Record<string, unknown>;
  pointer: string;
}

/** The first path segment when it is a version: `/v4/...` gives `v4`. */
export function versionOf(path: string): string | undefined {
  return /^\/(v\d+)(?:\/|$)/i.exec(path)?.[1]?.toLowerCase();
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const asText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Every operation of a bundle, in document order. */
export function readOperations(document: unknown): Operation[] {
  const reader = new OperationReader(document);
  return Object.entries(asRecord(asRecord(document).paths)).flatMap(([path, item]) => reader.pathItem(path, item));
}

class OperationReader {
  constructor(private readonly document: unknown) {}

  private resolve(node: unknown, pointer: string): { value: Record<string, unknown>; pointer: string } {
    const resolved = resolveReference<unknown>(this.document, node, pointer);
    return { value: asRecord(resolved.value), pointer: resolved.pointer ?? pointer };
  }

  pathItem(path: string, node: unknown): Operation[] {
    const { value: item, pointer } = this.resolve(node, pointerTo(['paths', path]));
    const shared = this.parameters(item.parameters, `${pointer}/parameters`);
    return httpMethods
      .filter((method) => item[method] !== undefined)
      .map((method) => this.operation(path, method, asRecord(item[method]), `${pointer}/${method}`, shared));
  }

  private operation(
    path: string,
    method: HttpMethod,
    definition: Record<string, unknown>,
    pointer: string,
    shared: Parameter[],
  ): Operation {
    const operationId = asText(definition.operationId);
    if (operationId === undefined) throw new DocumentError(`${method.toUpperCase()} ${path} has no operationId`, pointer);
    const own = this.parameters(definition.parameters, `${pointer}/parameters`);
    const identity = (parameter: Parameter) => `${parameter.in}:${parameter.name}`;
    const ownIdentities = new Set(own.map(identity));
    const requestBody =
      definition.requestBody === undefined ? undefined : this.requestBody(definition.requestBody, `${pointer}/requestBody`);
    return {
      operationId,
      method: method.toUpperCase() as Uppercase<HttpMethod>,
      path,
      version: versionOf(path),
      summary: asText(definition.summary),
      description: asText(definition.description),
      parameters: [...shared.filter((parameter) => !ownIdentities.has(identity(parameter))), ...own],
      ...(requestBody && { requestBody }),
      responses: Object.fromEntries(
        Object.entries(asRecord(definition.responses)).map(([status, response]) => [
          status,
          this.response(status, response, `${pointer}/responses/${status}`),
        ]),
      ),
      definition,
      pointer,
    };
  }

  private parameters(list: unknown, pointer: string): Parameter[] {
    return (Array.isArray(list) ? list : []).map((node, index) => {
      const { value: definition, pointer: at } = this.resolve(node, `${pointer}/${index}`);
      const schema = this.schema(definition.schema, `${at}/schema`);
      return {
        name: String(definition.name),
        in: definition.in as ParameterLocation,
        required: definition.required === true,
        description: asText(definition.description),
        example: definition.example,
        schema: schema.schema ?? {},
        schemaPointer: `${at}/schema`,
        definition,
        pointer: at,
      };
    });
  }

  private schema(node: unknown, pointer: string): { schema: Schema | undefined; schemaPointer: string | undefined } {
    if (node === undefined) return { schema: undefined, schemaPointer: undefined };
    return { schema: this.resolve(node, pointer).value, schemaPointer: pointer };
  }

  private content(node: unknown, pointer: string): Record<string, MediaContent> {
    return Object.fromEntries(
      Object.entries(asRecord(node)).map(([mediaType, media]) => {
        const at = `${pointer}/${escapePointer(mediaType)}`;
        const { examples, example, schema } = asRecord(media);
        const named = Object.entries(asRecord(examples)).map(([name, value]) => {
          const resolved = this.resolve(value, `${at}/examples/${escapePointer(name)}`).value;
          return [name, { summary: asText(resolved.summary), description: asText(resolved.description), value: resolved.value }] as const;
        });
        const lone = example === undefined ? [] : [['example', { summary: undefined, description: undefined, value: example }] as const];
        return [mediaType, { ...this.schema(schema, `${at}/schema`), examples: Object.fromEntries([...named, ...lone]) }];
      }),
    );
  }

  private requestBody(node: unknown, pointer: string): RequestBody {
    const { value, pointer: at } = this.resolve(node, pointer);
    return {
      required: value.required === true,
      description: asText(value.description),
      content: this.content(value.content, `${at}/content`),
      pointer: at,
    };
  }

  private response(status: string, node: unknown, pointer: string): Response {
    const { value: definition, pointer: at } = this.resolve(node, pointer);
    const headers = Object.entries(asRecord(definition.headers)).map(([name, header]) => {
      const { value, pointer: headerAt } = this.resolve(header, `${at}/headers/${escapePointer(name)}`);
      return { name, required: value.required === true, ...this.schema(value.schema, `${headerAt}/schema`), pointer: headerAt };
    });
    return {
      status,
      description: String(definition.description ?? ''),
      content: this.content(definition.content, `${at}/content`),
      headers,
      definition,
      pointer: at,
    };
  }
}

/** The documented response for a status: exact, then its `4XX`-style range, then `default`. */
export function documentedResponse(operation: Operation, status: number | string): Response | undefined {
  const exact = String(status);
  const { responses } = operation;
  return responses[exact] ?? responses[`${exact[0]}XX`] ?? responses[`${exact[0]}xx`] ?? responses.default;
}

/** The JSON body of a response or request body (`application/json`), if it has one. */
export const jsonContent = (part: { content: Record<string, MediaContent> } | undefined): MediaContent | undefined =>
  part?.content['application/json'];
