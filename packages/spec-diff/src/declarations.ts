/**
 * Declared breaking changes. A breaking change to a released version passes
 * review only when a new changeset (or a new entry of the document package's
 * CHANGELOG, which is where `changeset version` moves changesets) names it:
 *
 *   ---
 *   '@swap-gateway/openapi': major
 *   ---
 *   Remove `tx` from the offramp create-order result.
 *
 *   Breaking-API: POST /v4/create-order response 201 body field offramp.tx
 *
 * A declaration names the method, the path and optionally the start of the
 * change's location; it covers every breaking change whose key starts with it
 * (`Breaking-API: POST /v4/create-order` covers the whole operation). The
 * report prints each undeclared change's key, ready to copy.
 */
import { parse as parseYaml } from 'yaml';
import type { Change } from './compare-schema.js';
import type { OperationRef } from './diff.js';

/** The package whose major version a breaking change of the document bumps. */
export const DOCUMENT_PACKAGE = '@swap-gateway/openapi';

const DECLARATION_LINE = /^\s*(?:[-*]\s+)?Breaking-API:\s*(\S.*?)\s*$/i;

export interface Declaration {
  /** `POST /v4/create-order response 201 body field offramp.tx` */
  key: string;
  /** The file it was read from. */
  source: string;
  /** Why the declaration does not count, when it does not. */
  rejected: string | undefined;
}

/** The key a declaration names a change by: method, path, location. */
export const changeKey = (operation: OperationRef, change: Change): string => `${operation.method} ${operation.path} ${change.location}`;

const normalize = (key: string): string => {
  const [method = '', ...rest] = key.trim().split(/\s+/);
  return [method.toUpperCase(), ...rest].join(' ');
};

/** The accepted declaration covering `key`, if any. */
export function findDeclaration(key: string, declarations: Declaration[]): Declaration | undefined {
  const wanted = normalize(key);
  return declarations.find((declaration) => {
    if (declaration.rejected) return false;
    const declared = normalize(declaration.key);
    return wanted === declared || wanted.startsWith(`${declared} `);
  });
}

/** Lines of `text` that `baseText` does not have: only what this change adds can declare. */
function addedLines(text: string, baseText: string | undefined): string[] {
  const lines = text.split(/\r?\n/);
  if (baseText === undefined) return lines;
  const before = new Set(baseText.split(/\r?\n/));
  return lines.filter((line) => !before.has(line));
}

const declarationKeys = (lines: string[]): string[] =>
  lines.map((line) => DECLARATION_LINE.exec(line)?.[1]).filter((key): key is string => key !== undefined);

/**
 * Declarations of a changeset. It counts only if it bumps the document package
 * to a new major version: a breaking change is a major release of the document.
 */
export function declarationsFromChangeset(text: string, source: string, baseText?: string): Declaration[] {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  let bumps: Record<string, unknown> = {};
  try {
    bumps = (frontMatter ? parseYaml(frontMatter) : {}) ?? {};
  } catch {
    bumps = {};
  }
  const rejected = bumps[DOCUMENT_PACKAGE] === 'major' ? undefined : `the changeset does not bump '${DOCUMENT_PACKAGE}' to major`;
  return declarationKeys(addedLines(text, baseText)).map((key) => ({ key, source, rejected }));
}

/**
 * Declarations of the document package's CHANGELOG.md, where `changeset version`
 * moves them: only new lines, and only under a "Major Changes" heading.
 */
export function declarationsFromChangelog(text: string, source: string, baseText?: string): Declaration[] {
  const added = new Set(addedLines(text, baseText));
  const declarations: Declaration[] = [];
  let section = '';
  for (const line of text.split(/\r?\n/)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) section = heading[1]!.trim();
    const key = DECLARATION_LINE.exec(line)?.[1];
    if (key === undefined || !added.has(line)) continue;
    const rejected = /^major changes$/i.test(section) ? undefined : 'the entry is not under a "Major Changes" heading';
    declarations.push({ key, source, rejected });
  }
  return declarations;
}
