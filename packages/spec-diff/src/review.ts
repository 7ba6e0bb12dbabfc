/**
 * The review verdict: every breaking change to a released version must be
 * declared; breaking changes to an unreleased version and compatible changes
 * need nothing.
 */
import type { Change } from './compare-schema.js';
import { changeKey, findDeclaration, type Declaration } from './declarations.js';
import type { DiffReport, OperationDiff } from './diff.js';

export interface ReviewedChange {
  operation: OperationDiff;
  change: Change;
  /** The key a declaration names this change by. */
  key: string;
  /** Whether the change is breaking for a released version. */
  needsDeclaration: boolean;
  declaredBy: Declaration | undefined;
}

export interface Review {
  changes: ReviewedChange[];
  /** Breaking changes to a released version that no declaration covers: the review fails on these. */
  undeclared: ReviewedChange[];
  /** Declarations that were found but do not count, with the reason. */
  rejected: Declaration[];
}

export function reviewReport(report: DiffReport, declarations: Declaration[]): Review {
  const changes = report.operations.flatMap((operation) =>
    operation.changes.map((change): ReviewedChange => {
      const key = changeKey(operation, change);
      const needsDeclaration = change.severity === 'breaking' && operation.released;
      return { operation, change, key, needsDeclaration, declaredBy: needsDeclaration ? findDeclaration(key, declarations) : undefined };
    }),
  );
  return {
    changes,
    undeclared: changes.filter((reviewed) => reviewed.needsDeclaration && !reviewed.declaredBy),
    rejected: declarations.filter((declaration) => declaration.rejected),
  };
}
