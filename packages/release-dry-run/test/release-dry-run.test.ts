/**
 * The release dry run on a small workspace of its own: a good package, a private
 * one, and one with a missing file and types of the wrong format. Real pnpm pack, publint and attw.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataExports, formatChecks, releaseDry, releasablePackages } from '../src/release-dry-run.js';

const workspace = mkdtempSync(join(tmpdir(), 'release-dry-test-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function writePackage(name: string, manifest: object, files: Record<string, string>): void {
  const directory = join(workspace, 'packages', name);
  mkdirSync(join(directory, 'dist'), { recursive: true });
  writeFileSync(join(directory, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(directory, path), text);
}

writeFileSync(join(workspace, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'workspace', private: true }));
writePackage(
  'good',
  {
    name: '@fixture/good',
    version: '1.2.3',
    type: 'module',
    license: 'MIT',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './data.yaml': './dist/data.yaml' },
    files: ['dist'],
  },
  {
    'dist/index.js': 'export const answer = 42;\n',
    'dist/index.d.ts': 'export declare const answer: number;\n',
    'dist/data.yaml': 'answer: 42\n',
  },
);
writePackage('hidden', { name: '@fixture/hidden', version: '0.0.0', private: true }, {});
writePackage(
  'broken',
  {
    name: '@fixture/broken',
    version: '0.1.0',
    type: 'module',
    license: 'MIT',
    // CJS types over an ESM file (attw: "masquerading as CJS"), and an export of a file that is not there (publint).
    exports: { '.': { types: './dist/index.d.cts', default: './dist/index.js' }, './extra': './dist/missing.js' },
    files: ['dist'],
    dependencies: { '@fixture/good': 'workspace:*' },
  },
  { 'dist/index.js': 'export const broken = true;\n', 'dist/index.d.cts': 'export declare const broken: boolean;\n' },
);

describe('the release dry run', () => {
  it('releases every package that is not private', () => {
    expect(
      releasablePackages(workspace)
        .map((candidate) => candidate.name)
        .sort(),
    ).toEqual(['@fixture/broken', '@fixture/good']);
  });

  it('treats export targets that are not modules as data', () => {
    expect(
      dataExports({
        exports: { '.': { default: './dist/index.js' }, './gateway.json': './dist/gateway.json', './gateway.yaml': './dist/gateway.yaml' },
      }),
    ).toEqual(['./gateway.yaml']);
  });

  it('packs, lists contents and sizes, and fails the package that publint and attw reject', async () => {
    const outDir = join(workspace, 'tarballs');
    mkdirSync(outDir);
    const checks = await releaseDry(workspace, { build: false, outDir });
    const good = checks.find((check) => check.name === '@fixture/good')!;
    const broken = checks.find((check) => check.name === '@fixture/broken')!;

    expect(good.files).toEqual([
      { path: 'dist/data.yaml', size: 11 },
      { path: 'dist/index.d.ts', size: 37 },
      { path: 'dist/index.js', size: 26 },
      { path: 'package.json', size: expect.any(Number) },
    ]);
    expect(good.publint.ok).toBe(true);
    expect(good.attw).toMatchObject({ ok: true, notModules: ['./data.yaml'] });

    expect(broken.publint.ok).toBe(false);
    expect(broken.publint.messages).toEqual(['error: pkg.exports["./extra"] is ./dist/missing.js but the file does not exist.']);
    expect(broken.attw.ok).toBe(false);
    expect(broken.attw.output).toContain('Masquerading as CJS');

    const report = formatChecks(checks);
    expect(report).toContain('@fixture/good@1.2.3: ');
    expect(report).toContain('0.0 kB  dist/index.js');
    expect(report).toContain('checks failed for @fixture/broken. Nothing was published.');
  });
});
