#!/usr/bin/env node
/**
 * spec-diff [--base <ref>] [--format text|markdown|json]
 *   The document at <ref> (default: the merge base with main) against the working
 *   tree, per operation. Exit 1 when a breaking change to a released version is
 *   not declared (see CONTRIBUTING.md), 2 on bad input.
 * spec-diff --base-file <bundle.json> --head-file <bundle.json> [--changeset <file>]...
 *   The same for two bundles already on disk; declarations come from --changeset files.
 * spec-diff --versions [v3 v4] [--document <bundle.json>] [--format markdown|json]
 *   The migration report between two versions of one document (default: the built combined bundle).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadBundle } from '@swap-gateway/openapi';
import { declarationsFromChangeset, type Declaration } from './declarations.js';
import { compareVersions, diffDocuments } from './diff.js';
import { SpecDiffError, type JsonDocument } from './document.js';
import { formatReviewMarkdown, formatReviewText, formatVersionsMarkdown } from './format.js';
import { bundleAtRef, bundleDocument, bundlerIn, collectDeclarations, defaultBase, repositoryRoot } from './git.js';
import { reviewReport, type Review } from './review.js';

const FORMATS = ['text', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];

function readDocument(path: string): JsonDocument {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as JsonDocument;
  } catch (error) {
    throw new SpecDiffError('INVALID_ARGUMENTS', `cannot read the bundle ${path}`, { path, reason: (error as Error).message });
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        base: { type: 'string' },
        'base-file': { type: 'string' },
        'head-file': { type: 'string' },
        changeset: { type: 'string', multiple: true },
        versions: { type: 'boolean' },
        document: { type: 'string' },
        format: { type: 'string' },
        repo: { type: 'string' },
        bundler: { type: 'string' },
      },
    });
  } catch (error) {
    throw new SpecDiffError('INVALID_ARGUMENTS', (error as Error).message, { argv });
  }
}

/** The review for machines: each change once, with its key and whether it is declared. */
const reviewJson = (review: Review) => ({
  changes: review.changes.map(({ operation, change, key, needsDeclaration, declaredBy }) => ({
    operation: { method: operation.method, path: operation.path, operationId: operation.operationId, status: operation.status },
    ...change,
    key,
    needsDeclaration,
    declaredIn: declaredBy?.source,
  })),
  undeclared: review.undeclared.map((reviewed) => reviewed.key),
  rejectedDeclarations: review.rejected,
});

/** Runs the command; returns the exit code and writes the report to `out`. */
export function main(argv: string[], out: (text: string) => void = (text) => process.stdout.write(text)): number {
  const { values, positionals } = parse(argv);
  const format = (values.format ?? (values.versions ? 'markdown' : 'text')) as Format;
  if (!FORMATS.includes(format)) {
    throw new SpecDiffError('INVALID_ARGUMENTS', `--format must be one of ${FORMATS.join(', ')}`, { format });
  }

  if (values.versions) {
    const [from = 'v3', to = 'v4', ...extra] = positionals;
    if (extra.length > 0 || ![from, to].every((version) => /^v\d+$/i.test(version))) {
      throw new SpecDiffError('INVALID_ARGUMENTS', '--versions takes two versions such as v3 v4', { versions: positionals });
    }
    const document = values.document ? readDocument(values.document) : loadBundle('gateway');
    const report = compareVersions(document, from, to);
    if (format === 'text') throw new SpecDiffError('INVALID_ARGUMENTS', '--versions writes markdown or json', { format });
    out(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatVersionsMarkdown(report));
    return 0;
  }
  if (positionals.length > 0) throw new SpecDiffError('INVALID_ARGUMENTS', `unexpected argument ${positionals[0]}`, { positionals });

  let base: JsonDocument;
  let head: JsonDocument;
  let declarations: Declaration[];
  if (values['base-file'] || values['head-file']) {
    if (!values['base-file'] || !values['head-file']) {
      throw new SpecDiffError('INVALID_ARGUMENTS', '--base-file and --head-file go together', null);
    }
    base = readDocument(values['base-file']);
    head = readDocument(values['head-file']);
    declarations = (values.changeset ?? []).flatMap((path) => declarationsFromChangeset(readFileSync(path, 'utf8'), path));
  } else {
    const repoRoot = repositoryRoot(resolve(values.repo ?? process.cwd()));
    const bundler = resolve(values.bundler ?? bundlerIn(repoRoot));
    const ref = values.base ?? defaultBase(repoRoot);
    base = bundleAtRef(repoRoot, ref, bundler);
    head = bundleDocument(bundler, repoRoot);
    declarations = collectDeclarations(repoRoot, ref);
  }

  const review = reviewReport(diffDocuments(base, head), declarations);
  if (format === 'json') out(`${JSON.stringify(reviewJson(review), null, 2)}\n`);
  else out(format === 'markdown' ? formatReviewMarkdown(review) : formatReviewText(review));
  return review.undeclared.length > 0 ? 1 : 0;
}

// Run when executed (also through the bin link), not when imported by a test.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SpecDiffError)) throw error;
    process.stderr.write(`${JSON.stringify(error.toJSON())}\n`);
    process.exitCode = 2;
  }
}
