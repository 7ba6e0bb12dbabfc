/**
 * The changelog page, for integrators, built from the changesets (CONTRIBUTING.md): the changes
 * waiting in `.changeset/` under "Next release", then every release of the document package
 * (`packages/openapi/CHANGELOG.md`, which `pnpm changeset version` writes), newest first. Each is
 * dated (a pending change by the commit that added its changeset, a release by its tag) and split
 * into the API (the document's changes, with the API changes as `pnpm spec:diff` reports them between
 * that release and the one before, breaking first) and the client library (`@swap-gateway/client`
 * and `@swap-gateway/types`, released at the same version). What is for the repository's contributors
 * stays out: changeset files, bump kinds, commit hashes, `Breaking-API:` lines (the report lists
 * those changes, marked breaking).
 */
import { execFileSync } from 'node:child_process';
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
  /** YYYY-MM-DD: when the commit that added it was made (the build's day when it is not committed yet). */
  date?: string;
}

export interface Release {
  version: string;
  /** The release's section of the changelog, without its heading. */
  notes: string;
  /** YYYY-MM-DD of its tag's commit, when the tag is there. */
  date?: string;
  /** The same version's section of the client's and the types' changelogs. */
  clientNotes?: string;
}

/** The packages of the client library: their changes go in a section of their own. */
const clientPackages = ['@swap-gateway/client', '@swap-gateway/types'];

/** A git command's output in the repository, or undefined when git fails (no repository, no such ref). */
function git(repositoryRoot: string, ...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const today = () => new Date().toISOString().slice(0, 10);

/** The changesets waiting in `.changeset/` (every Markdown file but its README), dated by the commit that added each. */
export function pendingChangesets(directory: string, repositoryRoot?: string): PendingChangeset[] {
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
      const added = repositoryRoot && git(repositoryRoot, 'log', '--diff-filter=A', '--format=%as', '--', join(directory, file));
      return { file, bumps, summary: match[2]!.trim(), date: repositoryRoot ? (added?.split('\n').at(-1) ?? today()) : undefined };
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
  const clientReleases = clientPackages.flatMap((name) => {
    const file = join(repositoryRoot, 'packages', name.split('/')[1]!, 'CHANGELOG.md');
    return existsSync(file) ? releasesFromChangelog(readFileSync(file, 'utf8')) : [];
  });
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
    const clientNotes = clientReleases
      .filter((candidate) => candidate.version === release.version)
      .map((candidate) => candidate.notes)
      .join('\n\n');
    const date = git(repositoryRoot, 'log', '-1', '--format=%as', `${documentPackage}@${release.version}`);
    return { ...release, changes, date, clientNotes };
  });
  const latest = releases[0];
  return {
    pending: pendingChangesets(join(repositoryRoot, '.changeset'), repositoryRoot),
    releases: withChanges,
    unreleasedChanges: latest ? apiChangesMarkdown(diffDocuments(documentAt(latest.version), current), []) : undefined,
  };
}

/** Notes as an integrator reads them: no `Breaking-API:` lines (the report lists them), no commit hashes of changesets' entries. */
function readerNotes(notes: string): string {
  return notes
    .split(/\r?\n/)
    .filter((line) => !/^\s*Breaking-API:/.test(line))
    .join('\n')
    .replace(/^(\s*- )[0-9a-f]{7,40}: /gm, '$1')
    .replace(/^### (Major|Minor|Patch) Changes$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * One pending change as a list item: its date first, "Breaking." when it declares a breaking change,
 * the packages of the client it changes; its text on the same line when it is one paragraph, else
 * indented under that line (its own lists and paragraphs kept).
 */
function changeItem(changeset: PendingChangeset, packages: string[]): string {
  const head = [
    changeset.date && `**${changeset.date}**`,
    /^\s*Breaking-API:/m.test(changeset.summary) && '**Breaking.**',
    packages.length > 0 && packages.map((name) => `\`${name}\``).join(', '),
  ]
    .filter(Boolean)
    .join(' · ');
  const text = readerNotes(changeset.summary);
  if (!/\n\s*\n|^\s*- /.test(text)) return `- ${head}${head ? ': ' : ''}${text.replace(/\s*\n\s*/g, ' ')}`;
  return [`- ${head}`, '', ...text.split('\n').map((line) => (line ? `  ${line}` : ''))].join('\n');
}

export function changelogMarkdown({ pending, releases, unreleasedChanges }: ChangelogSources): string {
  const touchesApi = (changeset: PendingChangeset) => documentPackage in changeset.bumps;
  const api = pending.filter(touchesApi);
  const client = pending.filter((changeset) => !touchesApi(changeset) && clientPackages.some((name) => name in changeset.bumps));
  const newestFirst = (a: PendingChangeset, b: PendingChangeset) => (b.date ?? '').localeCompare(a.date ?? '');

  const lines: string[] = ['## Next release', '', '### The API', ''];
  if (api.length === 0) lines.push('No change to the API is waiting for a release.', '');
  for (const changeset of [...api].sort(newestFirst)) lines.push(changeItem(changeset, []), '');
  lines.push(
    (unreleasedChanges ?? 'The API has not been released yet: its first release carries V4 and V3 as the reference shows them.').replace(
      /^(#+) /gm,
      '#$1 ',
    ),
    '',
    '### Client library and types',
    '',
  );
  if (client.length === 0) lines.push('No change to the client library is waiting for a release.', '');
  for (const changeset of [...client].sort(newestFirst))
    lines.push(
      changeItem(
        changeset,
        clientPackages.filter((name) => name in changeset.bumps),
      ),
      '',
    );
  for (const release of releases) {
    lines.push(`## ${release.version}${release.date ? ` · ${release.date}` : ''}`, '', '### The API', '');
    lines.push(readerNotes(release.notes) || 'No notes.', '', release.changes.replace(/^(#+) /gm, '#$1 '), '');
    if (release.clientNotes?.trim()) lines.push('### Client library and types', '', readerNotes(release.clientNotes), '');
  }
  return lines.join('\n');
}
