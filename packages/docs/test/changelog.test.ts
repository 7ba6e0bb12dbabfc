/**
 * The changelog from changesets: a repository of its own (the document of this one, released twice
 * with git tags as `changeset publish` makes them, the changelog `changeset version` writes, and a
 * pending changeset) gives a page with the pending changes, then each release with its notes and its
 * API changes against the release before, breaking changes first.
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
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  const edit = (file: string, from: string, to: string) => {
    const path = join(work, 'openapi', file);
    const text = readFileSync(path, 'utf8');
    expect(text, `${file} holds ${from}`).toContain(from);
    writeFileSync(path, text.replace(from, to));
  };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'swap-gateway-changelog-'));
    cpSync(join(repositoryRoot, 'openapi'), join(work, 'openapi'), { recursive: true });
    git('init', '-q');
    git('-c', 'user.name=docs test', '-c', 'user.email=docs@test.invalid', 'add', '.');
    git('-c', 'user.name=docs test', '-c', 'user.email=docs@test.invalid', 'commit', '-qm', 'release 4.0.0');
    git('tag', '@swap-gateway/openapi@4.0.0');
    // 4.1.0: slippage becomes required (breaking for a client), amount optional (compatible).
    edit('components/parameters/slippage.yaml', 'required: false', 'required: true');
    edit('components/parameters/amount.yaml', 'required: true', 'required: false');
    git('-c', 'user.name=docs test', '-c', 'user.email=docs@test.invalid', 'commit', '-qam', 'release 4.1.0');
    git('tag', '@swap-gateway/openapi@4.1.0');
    mkdirSync(join(work, 'packages', 'openapi'), { recursive: true });
    writeFileSync(
      join(work, 'packages', 'openapi', 'CHANGELOG.md'),
      '# @swap-gateway/openapi\n\n## 4.1.0\n\n### Major Changes\n\n- abc1234: get-quote needs slippage.\n\n  Breaking-API: GET /v4/get-quote parameter query slippage\n\n## 4.0.0\n\n### Patch Changes\n\n- def5678: First release.\n',
    );
    mkdirSync(join(work, '.changeset'));
    writeFileSync(join(work, '.changeset', 'README.md'), '# Changesets\n');
    writeFileSync(
      join(work, '.changeset', 'quiet-fox.md'),
      "---\n'@swap-gateway/openapi': minor\n'@swap-gateway/client': minor\n---\n\nget-orders takes a status filter.\n",
    );
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lists the pending changesets, then each release with its API changes, breaking first', () => {
    const markdown = changelogMarkdown(readChangelogSources(work, loadBundle('gateway'), bundler));
    const nextRelease = markdown.indexOf('## Next release');
    const release410 = markdown.indexOf('## @swap-gateway/openapi 4.1.0');
    const release400 = markdown.indexOf('## @swap-gateway/openapi 4.0.0');
    expect(nextRelease).toBe(0);
    expect(release410).toBeGreaterThan(nextRelease);
    expect(release400).toBeGreaterThan(release410);
    expect(markdown).toContain(
      '- get-orders takes a status filter. (`@swap-gateway/openapi` minor, `@swap-gateway/client` minor; `.changeset/quiet-fox.md`)',
    );

    const changes410 = markdown.slice(release410, release400);
    expect(changes410).toContain('get-quote needs slippage.');
    expect(changes410).toContain('### API changes');
    const breaking = changes410.indexOf('| breaking, declared in @swap-gateway/openapi 4.1.0 | parameter query slippage | now required |');
    const compatible = changes410.indexOf('| compatible | parameter query amount | no longer required |');
    expect(breaking).toBeGreaterThan(0);
    expect(compatible).toBeGreaterThan(breaking);
    expect(markdown.slice(release400)).toContain('The first release of the document: nothing earlier to compare with.');
  });

  it("reads this repository's pending changesets", () => {
    const pending = pendingChangesets(join(repositoryRoot, '.changeset'));
    expect(pending.length).toBeGreaterThan(0);
    for (const changeset of pending) expect(Object.keys(changeset.bumps).length, changeset.file).toBeGreaterThan(0);
  });
});
