/**
 * @swap-gateway/spec-diff: what a change to an OpenAPI 3.1 document does to its
 * clients, operation by operation, and how two API versions of one document differ.
 */
export { compareOperations, type OperationSide } from './compare-operation.js';
export { compareSchemas, type Change, type Direction, type Severity } from './compare-schema.js';
export {
  changeKey,
  declarationsFromChangelog,
  declarationsFromChangeset,
  findDeclaration,
  DOCUMENT_PACKAGE,
  type Declaration,
} from './declarations.js';
export {
  compareVersions,
  describeOperation,
  diffDocuments,
  type DiffReport,
  type OperationDiff,
  type OperationRef,
  type OperationSurface,
  type VersionPair,
  type VersionReport,
} from './diff.js';
export { SpecDiffError, type DocumentInput, type JsonDocument } from './document.js';
export { bundleAtRef, bundlerIn, repositoryRoot } from './git.js';
export { formatReviewMarkdown, formatReviewText, formatVersionsMarkdown } from './format.js';
export { reviewReport, type Review, type ReviewedChange } from './review.js';
export { summarizeSchema, flattenSchema, type SchemaSummary, type Field } from './schema-shape.js';
