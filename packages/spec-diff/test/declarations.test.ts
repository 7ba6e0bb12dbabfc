/** The declaration format: which lines declare, which changesets count, which changes they cover. */
import { describe, expect, it } from 'vitest';
import { declarationsFromChangelog, declarationsFromChangeset, findDeclaration } from '../src/declarations.js';
import { diffDocuments } from '../src/diff.js';
import { reviewReport } from '../src/review.js';
import { documentWith, object } from './documents.js';

const changeset = (bump: string, body: string) => `---\n'@swap-gateway/openapi': ${bump}\n'@swap-gateway/types': ${bump}\n---\n\n${body}\n`;

describe('declarations in a changeset', () => {
  it('reads every Breaking-API line, bullets and case aside', () => {
    const text = changeset('major', 'Drop `note`.\n\nBreaking-API: GET /v4/thing response 200\n- breaking-api:   post /v4/other  \n');
    expect(declarationsFromChangeset(text, '.changeset/a.md')).toEqual([
      { key: 'GET /v4/thing response 200', source: '.changeset/a.md', rejected: undefined },
      { key: 'post /v4/other', source: '.changeset/a.md', rejected: undefined },
    ]);
  });

  it('does not count unless the changeset bumps the document package to major', () => {
    const [declaration] = declarationsFromChangeset(changeset('minor', 'Breaking-API: GET /v4/thing'), '.changeset/b.md');
    expect(declaration?.rejected).toMatch(/does not bump '@swap-gateway\/openapi' to major/);
    expect(findDeclaration('GET /v4/thing response 200 body field note', [declaration!])).toBeUndefined();
  });

  it('counts only lines the change adds', () => {
    const before = changeset('major', 'Breaking-API: GET /v4/old');
    const after = `${before}Breaking-API: GET /v4/new\n`;
    expect(declarationsFromChangeset(after, '.changeset/c.md', before).map((declaration) => declaration.key)).toEqual(['GET /v4/new']);
  });
});

describe('declarations in the document CHANGELOG', () => {
  const changelog = (entry: string) =>
    `# @swap-gateway/openapi\n\n## 5.0.0\n\n### Major Changes\n\n- abc1234: Drop note.\n\n  ${entry}\n\n### Patch Changes\n\n- def5678: Typo.\n\n  Breaking-API: GET /v4/patch\n`;

  it('counts new lines under "Major Changes" only', () => {
    const declarations = declarationsFromChangelog(changelog('Breaking-API: GET /v4/thing'), 'CHANGELOG.md', '# @swap-gateway/openapi\n');
    expect(declarations.map(({ key, rejected }) => [key, rejected ?? 'counts'])).toEqual([
      ['GET /v4/thing', 'counts'],
      ['GET /v4/patch', 'the entry is not under a "Major Changes" heading'],
    ]);
    expect(
      declarationsFromChangelog(changelog('Breaking-API: GET /v4/thing'), 'CHANGELOG.md', changelog('Breaking-API: GET /v4/thing')),
    ).toEqual([]);
  });
});

describe('matching declarations to changes', () => {
  const declared = (key: string) => [{ key, source: 'x.md', rejected: undefined }];

  it('covers the named location and everything under it, at word boundaries', () => {
    const change = 'GET /v4/thing response 200 body field note';
    expect(findDeclaration(change, declared('GET /v4/thing'))).toBeDefined();
    expect(findDeclaration(change, declared('get /v4/thing response 200'))).toBeDefined();
    expect(findDeclaration(change, declared(change))).toBeDefined();
    expect(findDeclaration(change, declared('GET /v4/thing response 20'))).toBeUndefined();
    expect(findDeclaration(change, declared('GET /v4/thing response 201'))).toBeUndefined();
    expect(findDeclaration(change, declared('POST /v4/thing'))).toBeUndefined();
  });

  it('the review fails on an undeclared breaking change to a released version only', () => {
    const before = documentWith({
      path: '/v4/thing',
      responses: { '200': object({ id: { type: 'string' }, note: { type: 'string' } }, ['id', 'note']) },
    });
    const after = documentWith({
      path: '/v4/thing',
      responses: { '200': object({ id: { type: 'string' }, extra: { type: 'string' } }, ['id']) },
    });
    const report = diffDocuments(before, after);

    const undeclared = reviewReport(report, []);
    expect(undeclared.undeclared.map((reviewed) => reviewed.key)).toEqual(['POST /v4/thing response 200 body field note']);
    // The compatible change (a response field added) needs nothing.
    expect(undeclared.changes.filter((reviewed) => !reviewed.needsDeclaration).map((reviewed) => reviewed.key)).toEqual([
      'POST /v4/thing response 200 body field extra',
    ]);

    const declaredReview = reviewReport(report, declared('POST /v4/thing response 200 body field note'));
    expect(declaredReview.undeclared).toEqual([]);
    expect(declaredReview.changes[0]?.declaredBy?.source).toBe('x.md');

    const unreleased = diffDocuments({ ...before, tags: [{ name: 'V4', 'x-unreleased': true }] }, after);
    expect(reviewReport(unreleased, []).undeclared).toEqual([]);
  });
});
