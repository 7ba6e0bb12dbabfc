/**
 * The changelog page, built from the changesets (CONTRIBUTING.md): the pending changesets under
 * "Next release", then every release of the document package (`packages/openapi/CHANGELOG.md`, which
 * `pnpm changeset version` writes) with its notes and its API changes as `pnpm spec:diff` reports them
 * between that release and the one before (the documents at their release tags), breaking first.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  bundleAtRef,
  declarationsFromChangelog,
  diffDocuments,
  formatReviewMarkdown,
  reviewReport,
  type Declaration,
  type DiffReport,
  type DocumentInput,
} from '@swap-gateway/spec-diff';

const documentPackage = '@swap-gateway/openapi';

export interface PendingChangeset {
  file: string;
  /** Package name → bump (patch, minor, major). */
  bumps: Record<string, string>;
  summary: string;
}

export interface Release {
  version: string;
  /** The release's section of the changelog, without its heading. */
  notes: string;
}

/** The changesets waiting in `.changeset/` (every Markdown file but its README). */
export function pendingChangesets(directory: string): PendingChangeset[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .sort()
    .map((file) => {
      const text = readFileSync(join(directory, file), 'utf8');
      const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
      if (!match) throw new Error(`.changeset/${file} has no front matter`);
      const bumps = Object.fromEntries(
        match[1]!
          .split(/\r?\n/)
          .map((line) => /^\s*['"]?([^'":]+)['"]?\s*:\s*(\w+)\s*$/.exec(line))
          .filter((entry): entry is RegExpExecArray => entry !== null)
          .map((entry) => [entry[1]!, entry[2]!]),
      );
      return { file, bumps, summary: match[2]!.trim() };
    });
}

/** The releases of a changesets changelog (`## 4.1.0` sections), newest first as written. */
function releasesFromChangelog(text: string): Release[] {
  const releases: Release[] = [];
  for (const section of text.split(/^## /m).slice(1)) {
    const [heading = '', ...body] = section.split(/\r?\n/);
    releases.push({ version: heading.trim(), notes: body.join('\n').trim() });
  }
  return releases;
}

/** The changes from one document to the next as spec:diff's review, breaking changes first, headings nested under a release. */
function apiChangesMarkdown(report: DiffReport, declarations: Declaration[]): string {
  const review = reviewReport(report, declarations);
  const rank = (severity: string) => (severity === 'breaking' ? 0 : 1);
  review.changes = [...review.changes].sort((a, b) => rank(a.change.severity) - rank(b.change.severity));
  return formatReviewMarkdown(review).replace(/^(#+) /gm, '#$1 ');
}

export interface ChangelogSources {
  pending: PendingChangeset[];
  releases: Array<Release & { changes: string }>;
  /** API changes since the latest release, when there is one. */
  unreleasedChanges: string | undefined;
}

/** The document at each release tag (`@swap-gateway/openapi@<version>`, as `changeset publish` tags). */
export function readChangelogSources(repositoryRoot: string, current: DocumentInput, bundler: string): ChangelogSources {
  const changelogFile = join(repositoryRoot, 'packages', 'openapi', 'CHANGELOG.md');
  const releases = existsSync(changelogFile) ? releasesFromChangelog(readFileSync(changelogFile, 'utf8')) : [];
  // Each release is both one comparison's newer side and the next one's older side: bundle it once.
  const bundled = new Map<string, ReturnType<typeof bundleAtRef>>();
  const documentAt = (version: string) => {
    if (!bundled.has(version)) bundled.set(version, bundleAtRef(repositoryRoot, `${documentPackage}@${version}`, bundler));
    return bundled.get(version)!;
  };
  const withChanges = releases.map((release, index) => {
    const previous = releases[index + 1];
    const declarations = declarationsFromChangelog(release.notes, `${documentPackage} ${release.version}`);
    const changes = previous
      ? apiChangesMarkdown(diffDocuments(documentAt(previous.version), documentAt(release.version)), declarations)
      : 'The first release of the document: nothing earlier to compare with.\n';
    return { ...release, changes };
  });
  const latest = releases[0];
  return {
    pending: pendingChangesets(join(repositoryRoot, '.changeset')),
    releases: withChanges,
    unreleasedChanges: latest ? apiChangesMarkdown(diffDocuments(documentAt(latest.version), current), []) : undefined,
  };
}

export function changelogMarkdown({ pending, releases, unreleasedChanges }: ChangelogSources): string {
  const lines: string[] = ['## Next release', ''];
  if (pending.length === 0) lines.push('No change is waiting for a release.', '');
  for (const changeset of pending) {
    const bumps = Object.entries(changeset.bumps)
      .map(([name, bump]) => `\`${name}\` ${bump}`)
      .join(', ');
    lines.push(`- ${changeset.summary.replace(/\r?\n/g, ' ')} (${bumps}; \`.changeset/${changeset.file}\`)`);
  }
  lines.push('');
  lines.push(
    unreleasedChanges ??
      'The document has not been released yet, so there is no earlier document to compare with: its first release carries V4 and V3 as the reference shows them.',
    '',
  );
  for (const release of releases) {
    lines.push(`## ${documentPackage} ${release.version}`, '', release.notes, '', release.changes, '');
  }
  return lines.join('\n');
}
