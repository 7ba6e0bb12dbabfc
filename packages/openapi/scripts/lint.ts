/**
 * Lints the document: Spectral (house rules, OWASP, spectral:oas) and Redocly
 * (recommended + configurable rules), each on the multi-file sources and on the
 * three bundles. Any error or warning fails; a warning we accept is turned off
 * in the ruleset with its reason.
 * Each linter runs once per ruleset with all its targets (three processes, not
 * ten): loading a linter costs more than linting one more document.
 *
 *   tsx packages/openapi/scripts/lint.ts   (the package's `lint`, run by `pnpm lint` after `pnpm build`)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles } from './bundle.ts';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageRoot, '..', '..');
const require = createRequire(import.meta.url);
const bin = (pkg: string, path: string) => join(dirname(require.resolve(`${pkg}/package.json`)), path);
const spectralCli = bin('@stoplight/spectral-cli', 'dist/index.js');
const redoclyCli = bin('@redocly/cli', 'bin/cli.js');

const sourceRoot = join(repoRoot, 'openapi', 'openapi.yaml');
const bundleFiles = bundles.map(({ file }) => join(packageRoot, 'dist', `${file}.json`));
const rulesets = {
  sources: join(repoRoot, 'openapi', 'lint', 'spectral-sources.yaml'),
  bundles: join(repoRoot, 'openapi', 'lint', 'spectral.yaml'),
};
const redoclyConfig = join(repoRoot, 'openapi', 'redocly.yaml');

interface Problem {
  where: string;
  rule: string;
  severity: string;
  message: string;
}
interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  source?: string;
  range: { start: { line: number } };
  path: string[];
}
interface RedoclyReport {
  problems: { ruleId: string; severity: string; message: string; location: { source: { ref: string }; pointer: string }[] }[];
}

/**
 * Runs a linter CLI and returns what it printed. Its standard output goes to a file, not a pipe:
 * Node writes to pipes asynchronously, and a CLI that exits right after printing a large report
 * can lose it on a loaded machine; writes to a file are synchronous.
 */
function run(args: string[]): string {
  const scratch = mkdtempSync(join(tmpdir(), 'gateway-lint-'));
  const outputFile = join(scratch, 'report.json');
  const output = openSync(outputFile, 'w');
  try {
    const result = spawnSync(process.execPath, args, {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', output, 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    if (result.error) throw result.error;
    const report = readFileSync(outputFile, 'utf8');
    if (!report.trim().startsWith('{') && !report.trim().startsWith('[')) {
      throw new Error(
        `linter did not report (exit ${result.status}, signal ${result.signal}): ${args.slice(1).join(' ')}\n${report}${result.stderr}`,
      );
    }
    return report;
  } finally {
    closeSync(output);
    rmSync(scratch, { recursive: true, force: true });
  }
}

const severityNames = ['error', 'warning', 'info', 'hint'];

/** Spectral on `documents` with one ruleset, the problems of each document apart (its results name their source file). */
function spectral(documents: string[], ruleset: string): Problem[][] {
  const results = JSON.parse(
    run([spectralCli, 'lint', ...documents, '--ruleset', ruleset, '--format', 'json', '--fail-severity', 'hint', '--quiet']),
  ) as SpectralResult[];
  // A result on a file the document references (the sources' $refs) belongs to the document.
  const documentOf = (result: SpectralResult) => (documents.length === 1 ? 0 : documents.indexOf(resolve(repoRoot, result.source ?? '')));
  const unattributed = results.filter((result) => documentOf(result) < 0);
  if (unattributed.length > 0)
    throw new Error(`Spectral reported on none of ${documents.join(', ')}:\n${JSON.stringify(unattributed, null, 2)}`);
  return documents.map((document, index) =>
    results
      .filter((result) => documentOf(result) === index)
      .map((result) => ({
        where: `${relative(repoRoot, result.source ?? document)}:${result.range.start.line + 1} (${result.path.join('.')})`,
        rule: `spectral ${result.code}`,
        severity: severityNames[result.severity] ?? 'error',
        message: result.message,
      })),
  );
}

/** Redocly on `targets` (API aliases of redocly.yaml or files), the problems of each target apart. */
function redocly(targets: string[]): Problem[][] {
  // Redocly writes one JSON report per target, one after the other: `{...}{...}`, each closing
  // brace of a report at the start of a line.
  const output = run([redoclyCli, 'lint', ...targets, '--config', redoclyConfig, '--format', 'json', '--max-problems', '1000']);
  const reports = JSON.parse(`[${output.replace(/^\}\s*\{/gm, '},{')}]`) as RedoclyReport[];
  if (reports.length !== targets.length) throw new Error(`Redocly reported on ${reports.length} of ${targets.length} targets:\n${output}`);
  return reports.map((report) =>
    report.problems.map((problem) => ({
      where: problem.location.map((at) => `${relative(repoRoot, resolve(repoRoot, at.source.ref))}${at.pointer}`).join(', '),
      rule: `redocly ${problem.ruleId}`,
      severity: problem.severity,
      message: problem.message,
    })),
  );
}

const bundleNames = bundleFiles.map((file) => relative(repoRoot, file));
const [sourceProblems = []] = spectral([sourceRoot], rulesets.sources);
const bundleProblems = spectral(bundleFiles, rulesets.bundles);
const redoclyProblems = redocly([...bundles.map(({ api }) => api), ...bundleFiles]);
const checks: [string, Problem[]][] = [
  ['Spectral, sources', sourceProblems],
  ...bundleNames.map((name, index): [string, Problem[]] => [`Spectral, ${name}`, bundleProblems[index]!]),
  ...bundles.map(({ api }, index): [string, Problem[]] => [`Redocly, sources as ${api}`, redoclyProblems[index]!]),
  ...bundleNames.map((name, index): [string, Problem[]] => [`Redocly, ${name}`, redoclyProblems[bundles.length + index]!]),
];

let total = 0;
for (const [name, problems] of checks) {
  total += problems.length;
  console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name}: ${problems.length} problem(s)`);
  for (const problem of problems) console.log(`     ${problem.severity} ${problem.rule} ${problem.where}\n       ${problem.message}`);
}
console.log(total === 0 ? '\nlint: 0 errors, 0 warnings' : `\nlint: ${total} problem(s)`);
process.exitCode = total === 0 ? 0 : 1;
