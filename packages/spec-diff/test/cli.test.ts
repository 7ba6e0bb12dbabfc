/**
 * The command as a user runs it: the built bin, real files, a real git repository
 * holding a copy of the document, and the repository's own bundler (packages/openapi/scripts/bundle.ts).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '@swap-gateway/openapi';
import { bundlerIn } from '../src/git.js';
import { afterAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'spec-diff-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], cwd = scratch) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The real combined bundle with `gasRefill` gone from the onramp quote. */
function bundlesWithoutGasRefill(): { base: string; head: string } {
  const base = join(scratch, 'base.json');
  const head = join(scratch, 'head.json');
  const document = loadBundle('gateway');
  writeFileSync(base, JSON.stringify(document));
  const onramp = (document.components.schemas as Record<string, { properties: Record<string, unknown> }>).GatewayOnrampQuoteV2!;
  delete onramp.properties.gasRefill;
  writeFileSync(head, JSON.stringify(document));
  return { base, head };
}

const GAS_REFILL_KEY = 'GET /v4/get-quote response 200 body field onramp.gasRefill';

describe('spec-diff on two bundles', () => {
  const { base, head } = bundlesWithoutGasRefill();

  it('prints the change per operation and fails on an undeclared breaking change', () => {
    const { status, stdout } = run(['--base-file', base, '--head-file', head]);
    expect(status).toBe(1);
    expect(stdout).toContain('GET /v4/get-quote (getQuoteV4): changed, v4');
    expect(stdout).toContain('BREAKING, undeclared: response 200 body field onramp.gasRefill: removed');
    // The same field in create-order's request body is compatible: the object still takes unknown fields.
    expect(stdout).toContain('compatible: request body field onramp.gasRefill: removed from the schema');
    expect(stdout).toContain(`  Breaking-API: ${GAS_REFILL_KEY}`);
  });

  it('passes once a changeset that bumps the document to major declares it', () => {
    const changeset = join(scratch, 'drop-gas-refill.md');
    writeFileSync(
      changeset,
      `---\n'@swap-gateway/openapi': major\n---\n\nDrop gasRefill.\n\nBreaking-API: GET /v4/get-quote response 200\n`,
    );
    const { status, stdout } = run(['--base-file', base, '--head-file', head, '--changeset', changeset]);
    expect(status).toBe(0);
    expect(stdout).toContain(`breaking, declared in ${changeset}: response 200 body field onramp.gasRefill: removed`);
  });

  it('writes JSON and Markdown', () => {
    const json = JSON.parse(run(['--base-file', base, '--head-file', head, '--format', 'json']).stdout);
    expect(json.undeclared).toEqual([GAS_REFILL_KEY]);
    const markdown = run(['--base-file', base, '--head-file', head, '--format', 'markdown']).stdout;
    expect(markdown).toContain('| BREAKING, undeclared | response 200 body field onramp.gasRefill | removed |');
  });

  it('answers bad input with a structured error and exit code 2', () => {
    const missing = run(['--base-file', join(scratch, 'nope.json'), '--head-file', head]);
    expect(missing.status).toBe(2);
    expect(JSON.parse(missing.stderr)).toMatchObject({ code: 'INVALID_ARGUMENTS', error: expect.stringContaining('nope.json') });
    const notOpenApi = join(scratch, 'not-openapi.json');
    writeFileSync(notOpenApi, '{"swagger": "2.0"}');
    expect(JSON.parse(run(['--base-file', notOpenApi, '--head-file', head]).stderr)).toMatchObject({ code: 'INVALID_DOCUMENT' });
    const dangling = join(scratch, 'dangling.json');
    const gone = { $ref: '#/components/responses/Gone' };
    writeFileSync(
      dangling,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: { '/v1/x': { get: { operationId: 'x', responses: { '200': gone } } } },
      }),
    );
    expect(JSON.parse(run(['--base-file', dangling, '--head-file', head]).stderr)).toMatchObject({
      code: 'INVALID_DOCUMENT',
      details: { ref: gone.$ref },
    });
    expect(JSON.parse(run(['--format', 'pdf']).stderr)).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(JSON.parse(run(['--versions', 'v3', 'v9']).stderr)).toMatchObject({ code: 'INVALID_ARGUMENTS', details: { version: 'v9' } });
  });

  it('writes the V3 → V4 report', () => {
    const { status, stdout } = run(['--versions', 'v3', 'v4', '--format', 'markdown']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^## V3 → V4\n/);
    expect(stdout).toContain('| `PATCH /v4/register-tx` | none (new in V4) | | |');
  });
});

describe('spec-diff against a git ref', () => {
  const git = (cwd: string, ...args: string[]) => {
    const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  };
  const repo = join(scratch, 'repo');

  it('bundles the document at the ref and in the working tree, and reads the declaration from .changeset/', () => {
    mkdirSync(repo);
    cpSync(join(repoRoot, 'openapi'), join(repo, 'openapi'), { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', 'openapi');
    git(repo, '-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '-m', 'document');

    const onramp = join(repo, 'openapi/components/schemas/GatewayOnrampQuoteV2.yaml');
    const source = readFileSync(onramp, 'utf8');
    const withoutGasRefill = source.replace(/\n {2}gasRefill:\n(?: {4}.*\n)+/, '\n');
    expect(withoutGasRefill).not.toBe(source);
    writeFileSync(onramp, withoutGasRefill);

    // No --base: the merge base with main, which is HEAD on this one-branch repository.
    const bundler = bundlerIn(repoRoot);
    const undeclared = run(['--repo', repo, '--bundler', bundler], repo);
    expect(undeclared.stderr).toBe('');
    expect(undeclared.status).toBe(1);
    expect(undeclared.stdout).toContain(`  Breaking-API: ${GAS_REFILL_KEY}`);

    mkdirSync(join(repo, '.changeset'));
    writeFileSync(
      join(repo, '.changeset/drop-gas-refill.md'),
      `---\n'@swap-gateway/openapi': major\n---\n\nDrop gasRefill from onramp quotes.\n\nBreaking-API: ${GAS_REFILL_KEY}\n`,
    );
    const declared = run(['--repo', repo, '--bundler', bundler, '--base', 'HEAD'], repo);
    expect(declared.status).toBe(0);
    expect(declared.stdout).toContain('breaking, declared in .changeset/drop-gas-refill.md');
  }, 180_000); // four bundles of the combined document, a tsx and a Redocly process each: seconds each, far more on a busy CI machine
});
