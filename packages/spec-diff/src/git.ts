/**
 * The document at a git ref and in the working tree, bundled the same way:
 * `git archive <ref> openapi | tar -x` into a temporary directory, then the
 * working tree's packages/openapi/scripts/bundle.ts with `--source` and `--out`
 * (and `--only gateway`: the diff reads the combined bundle alone).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declarationsFromChangelog, declarationsFromChangeset, type Declaration } from './declarations.js';
import { SpecDiffError, type JsonDocument } from './document.js';

const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

function git(repoRoot: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new SpecDiffError('GIT_FAILED', `git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`, { args });
  }
}

export const repositoryRoot = (cwd: string): string => git(cwd, ['rev-parse', '--show-toplevel']).trim();

/** The default base: where this branch left main (or origin/main in a clone without a local main). */
export function defaultBase(repoRoot: string): string {
  for (const main of ['main', 'origin/main']) {
    try {
      return git(repoRoot, ['merge-base', 'HEAD', main]).trim();
    } catch {
      // try the next name of main
    }
  }
  throw new SpecDiffError('GIT_FAILED', 'no merge base with main or origin/main; pass --base <ref>', null);
}

/** The document package's bundler in the repository at `repoRoot` (its `build`). */
export const bundlerIn = (repoRoot: string): string => join(repoRoot, 'packages', 'openapi', 'scripts', 'bundle.ts');

/** Runs the working tree's bundler on `sourceRoot` and reads the combined bundle. */
export function bundleDocument(bundler: string, sourceRoot: string): JsonDocument {
  const out = mkdtempSync(join(tmpdir(), 'spec-diff-bundle-'));
  try {
    execFileSync(process.execPath, [tsxCli, bundler, '--source', sourceRoot, '--out', out, '--only', 'gateway'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(readFileSync(join(out, 'gateway.json'), 'utf8')) as JsonDocument;
  } catch (error) {
    const failure = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim();
    throw new SpecDiffError('BUNDLE_FAILED', `bundling the document in ${sourceRoot} failed`, { output: output.slice(-2000) });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The bundled document as it is at `ref`. */
export function bundleAtRef(repoRoot: string, ref: string, bundler: string): JsonDocument {
  const commit = git(repoRoot, ['rev-parse', '--verify', `${ref}^{commit}`]).trim();
  const source = mkdtempSync(join(tmpdir(), 'spec-diff-source-'));
  try {
    const archive = execFileSync('git', ['archive', commit, 'openapi'], { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', source], { input: archive });
    return bundleDocument(bundler, source);
  } catch (error) {
    if (error instanceof SpecDiffError) throw error;
    throw new SpecDiffError('GIT_FAILED', `cannot extract openapi/ at ${ref}`, { ref, reason: (error as Error).message });
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

/** A file as it is at `ref`, or undefined when it did not exist there. */
function fileAtRef(repoRoot: string, ref: string, path: string): string | undefined {
  try {
    return execFileSync('git', ['show', `${ref}:${path}`], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

/** The document package's changelog, where `changeset version` writes the released changesets. */
export const DOCUMENT_CHANGELOG = 'packages/openapi/CHANGELOG.md';

/** Declarations added since `base`: in changesets of the working tree and in the document's changelog. */
export function collectDeclarations(repoRoot: string, base: string): Declaration[] {
  const declarations: Declaration[] = [];
  const changesetDir = join(repoRoot, '.changeset');
  if (existsSync(changesetDir)) {
    for (const name of readdirSync(changesetDir).sort()) {
      if (!name.endsWith('.md') || name === 'README.md') continue;
      const path = `.changeset/${name}`;
      declarations.push(...declarationsFromChangeset(readFileSync(join(repoRoot, path), 'utf8'), path, fileAtRef(repoRoot, base, path)));
    }
  }
  if (existsSync(join(repoRoot, DOCUMENT_CHANGELOG))) {
    const text = readFileSync(join(repoRoot, DOCUMENT_CHANGELOG), 'utf8');
    declarations.push(...declarationsFromChangelog(text, DOCUMENT_CHANGELOG, fileAtRef(repoRoot, base, DOCUMENT_CHANGELOG)));
  }
  return declarations;
}
