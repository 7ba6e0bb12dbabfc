/**
 * What the site reads from a bundle: the operations of @swap-gateway/openapi's document model, of a
 * version the site publishes. Everything the pages say about the API comes through the model, so
 * that a change to the document changes the site.
 */
import { readOperations, type OpenApiDocument, type Operation } from '@swap-gateway/openapi';

export type ApiVersion = 'v4' | 'v3';

/** An operation of the model with what a page needs of it: a published version and a summary for its heading. */
export interface PublishedOperation extends Operation {
  version: ApiVersion;
  summary: string;
}

/** Every operation of a bundle, in document order; throws on one the site cannot publish. */
export function publishedOperations(document: OpenApiDocument): PublishedOperation[] {
  return readOperations(document).map((operation) => {
    const { method, path, version, summary } = operation;
    if (version !== 'v4' && version !== 'v3') throw new Error(`path ${path} has no version segment the site knows`);
    if (summary === undefined) throw new Error(`${method} ${path} has no summary to head its section`);
    return { ...operation, version, summary };
  });
}

/** The anchor Redoc gives an operation in its reference page (`#/v4/getquotev4`). */
export function referenceAnchor(operation: Pick<PublishedOperation, 'version' | 'operationId'>): string {
  return `#/${operation.version}/${operation.operationId.toLowerCase()}`;
}

/** The extensions that carry the document's notes for API review: shown on the open-questions page, not to integrators. */
export const reviewNoteKeys = ['x-inferred', 'x-unspecified'] as const;

/** A copy of a document (or any part of one) without its notes for API review, for the pages integrators read. */
export function withoutReviewNotes<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => withoutReviewNotes(item)) as T;
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !(reviewNoteKeys as readonly string[]).includes(key))
      .map(([key, value]) => [key, withoutReviewNotes(value)]),
  ) as T;
}
