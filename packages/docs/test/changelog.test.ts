/**
 * The changelog from changesets: a repository of its own (the document of this one, released twice
 * with git tags as `changeset publish` makes them, the changelogs `changeset version` writes for the
 * document and the client, and pending changesets) gives a page for integrators: the pending changes,
 * then each release, every change dated, the API's (with its changes against the release before,
 * breaking first) apart from the client library's, and nothing of the changesets' machinery.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle } from '@swap-gateway/openapi';
import { bundlerIn } from '@swap-gateway/spec-diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changelogMarkdown, pendingChangesets, readChangelogSources } from '../src/guide-sections/changelog.js';
import { packageRoot } from '../src/paths.js';

const repositoryRoot = join(packageRoot, '..', '..');
const bundler = bundlerIn(repositoryRoot);

describe('the changelog page', () => {
  let work: string;
  /** git in the test's repository, its commits made on `date`. */
  const git = (date: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_AUTHOR_DATE: `${date}T12:00:00Z`, GIT_COMMITTER_DATE: `${date}T12:00:00Z` },
    });
  const commit = (date: string, message: string) =>
    git(date, '-c', 'user.name=docs test', '-c', 'user.email=docs@test.invalid', 'commit', '-qam', message);
  const edit = (file: string, from: string, to: string) => {
    const path = join(work, 'openapi', file);
    const text = readFileSync(path, 'utf8');
    expect(text, `${file} holds ${from}`).toContain(from);
    writeFileSync(path, text.replace(from, to));
  };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'swap-gateway-changelog-'));
    cpSync(join(repositoryRoot, 'openapi'), join(work, 'openapi'), { recursive: true });
    git('2025-01-15', 'init', '-q');
    git('2025-01-15', 'add', '.');
    commit('2025-01-15', 'release 4.0.0');
    git('2025-01-15', 'tag', '@swap-gateway/openapi@4.0.0');
    // 4.1.0: slippage becomes required (breaking for a client), amount optional (compatible).
    edit('components/parameters/slippage.yaml', 'required: false', 'required: true');
    edit('components/parameters/amount.yaml', 'required: true', 'required: false');
    commit('2025-03-02', 'release 4.1.0');
    git('2025-03-02', 'tag', '@swap-gateway/openapi@4.1.0');
    mkdirSync(join(work, 'packages', 'openapi'), { recursive: true });
    writeFileSync(
      join(work, 'packages', 'openapi', 'CHANGELOG.md'),
      '# @swap-gateway/openapi\n\n## 4.1.0\n\n### Major Changes\n\n- abc1234: get-quote needs slippage.\n\n  Breaking-API: GET /v4/get-quote parameter query slippage\n\n## 4.0.0\n\n### Patch Changes\n\n- def5678: First release.\n',
    );
    mkdirSync(join(work, 'packages', 'client'), { recursive: true });
    writeFileSync(
      join(work, 'packages', 'client', 'CHANGELOG.md'),
      '# @swap-gateway/client\n\n## 4.1.0\n\n### Minor Changes\n\n- 0123abc: getQuote sends slippage.\n',
    );
    mkdirSync(join(work, '.changeset'));
    writeFileSync(join(work, '.changeset', 'README.md'), '# Changesets\n');
    writeFileSync(
      join(work, '.changeset', 'quiet-fox.md'),
      "---\n'@swap-gateway/openapi': minor\n'@swap-gateway/client': minor\n---\n\nget-orders takes a status filter.\n",
    );
    git('2025-04-10', 'add', '.');
    commit('2025-04-10', 'get-orders takes a status filter');
    // Not committed yet: dated the day of the build.
    writeFileSync(join(work, '.changeset', 'brave-owl.md'), "---\n'@swap-gateway/client': patch\n---\n\nwaitForOrder stops on an abort.\n");
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lists the pending changes, then each release, dated, the API apart from the client, breaking first', () => {
    const markdown = changelogMarkdown(readChangelogSources(work, loadBundle('gateway'), bundler));
    const nextRelease = markdown.indexOf('## Next release');
    const release410 = markdown.indexOf('## 4.1.0 · 2025-03-02');
    const release400 = markdown.indexOf('## 4.0.0 · 2025-01-15');
    expect(nextRelease).toBe(0);
    expect(release410).toBeGreaterThan(nextRelease);
    expect(release400).toBeGreaterThan(release410);

    const next = markdown.slice(0, release410);
    const clientSection = next.indexOf('### Client library and types');
    // A change of the document is the API's, dated by the commit that added its changeset.
    expect(next.indexOf('- **2025-04-10**: get-orders takes a status filter.')).toBeGreaterThan(next.indexOf('### The API'));
    expect(next.indexOf('get-orders takes a status filter.')).toBeLessThan(clientSection);
    // A change of the client alone is the client's, dated today while its changeset is not committed.
    expect(next.slice(clientSection)).toContain(
      `- **${new Date().toISOString().slice(0, 10)}** · \`@swap-gateway/client\`: waitForOrder stops on an abort.`,
    );

    const changes410 = markdown.slice(release410, release400);
    expect(changes410).toContain('### The API\n\n- get-quote needs slippage.');
    expect(changes410).toContain('#### API changes');
    const breaking = changes410.indexOf('| breaking, declared in @swap-gateway/openapi 4.1.0 | parameter query slippage | now required |');
    const compatible = changes410.indexOf('| compatible | parameter query amount | no longer required |');
    expect(breaking).toBeGreaterThan(0);
    expect(compatible).toBeGreaterThan(breaking);
    expect(changes410).toContain('### Client library and types\n\n- getQuote sends slippage.');
    expect(markdown.slice(release400)).toContain('The first release of the document: nothing earlier to compare with.');

    // Nothing of the machinery: no changeset file, bump, commit hash or Breaking-API line.
    expect(markdown).not.toMatch(
      /\.changeset\/|\b(minor|major|patch)\b|abc1234|def5678|0123abc|Breaking-API:|### (Major|Minor|Patch) Changes/,
    );
  });

  it("reads this repository's pending changesets", () => {
    const pending = pendingChangesets(join(repositoryRoot, '.changeset'), repositoryRoot);
    expect(pending.length).toBeGreaterThan(0);
    for (const changeset of pending) {
      expect(Object.keys(changeset.bumps).length, changeset.file).toBeGreaterThan(0);
      expect(changeset.date, changeset.file).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
  });
});
