/**
 * pnpm release:dry [--no-build] [--out <dir>]
 *
 * What a release would publish, without publishing: builds every workspace
 * package that is not private, packs each with `pnpm pack` (which rewrites
 * `workspace:*` to versions, as publishing does), checks each tarball with
 * publint (strict) and @arethetypeswrong/cli (ESM-only profile: the packages
 * ship ES modules only), and lists the files and sizes. Exit 1 when a check fails.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { list as listTarball } from 'tar';

const require = createRequire(import.meta.url);

interface WorkspacePackage {
  name: string;
  version: string;
  path: string;
  private?: boolean;
}

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackageCheck {
  name: string;
  version: string;
  tarball: string;
  packedSize: number;
  files: PackedFile[];
  publint: { ok: boolean; messages: string[] };
  attw: { ok: boolean; output: string; notModules: string[] };
}

const run = (command: string, args: string[], cwd: string): string =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });

/** The workspace packages that a release publishes: every one not marked private. */
export function releasablePackages(workspaceRoot: string): WorkspacePackage[] {
  const packages = JSON.parse(run('pnpm', ['ls', '-r', '--depth', '-1', '--json'], workspaceRoot)) as WorkspacePackage[];
  return packages.filter((candidate) => candidate.private !== true && resolve(candidate.path) !== resolve(workspaceRoot));
}

/** Every file of a tarball with its unpacked size, without the `package/` prefix. */
export function tarballFiles(tarball: string): PackedFile[] {
  const files: PackedFile[] = [];
  listTarball({
    file: tarball,
    sync: true,
    onReadEntry: (entry) => {
      if (entry.type === 'File') files.push({ path: entry.path.replace(/^package\//, ''), size: entry.size ?? 0 });
    },
  });
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Export subpaths that are data files rather than modules (`./gateway.yaml`):
 * nothing imports them, so no type resolution applies; publint still checks them.
 */
export function dataExports(packageJson: { exports?: unknown }): string[] {
  if (typeof packageJson.exports !== 'object' || packageJson.exports === null) return [];
  const moduleExtensions = new Set(['.js', '.mjs', '.cjs', '.json', '.ts', '.mts', '.cts']);
  return Object.entries(packageJson.exports as Record<string, unknown>)
    .filter(([, target]) => typeof target === 'string' && !moduleExtensions.has(extname(target)))
    .map(([subpath]) => subpath);
}

async function checkPackage(workspacePackage: WorkspacePackage, outDir: string): Promise<PackageCheck> {
  const packed = JSON.parse(run('pnpm', ['pack', '--pack-destination', outDir, '--json'], workspacePackage.path)) as {
    filename: string;
    size?: number;
  };
  const tarball = packed.filename;
  const bytes = readFileSync(tarball);

  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
    strict: true,
  });
  const publintMessages = messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`);

  const notModules = dataExports(pkg as { exports?: unknown });
  const attwBin = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist', 'index.js');
  const attwArgs = [attwBin, tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-color', '--no-emoji'];
  if (notModules.length > 0) attwArgs.push('--exclude-entrypoints', ...notModules);
  const attw = spawnSync(process.execPath, attwArgs, { encoding: 'utf8' });

  return {
    name: workspacePackage.name,
    version: workspacePackage.version,
    tarball,
    packedSize: bytes.byteLength,
    files: tarballFiles(tarball),
    // Strict: a warning fails like an error; suggestions are shown but pass.
    publint: { ok: messages.every((message) => message.type === 'suggestion'), messages: publintMessages },
    attw: { ok: attw.status === 0, output: `${attw.stdout}${attw.stderr}`.trim(), notModules },
  };
}

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

export function formatChecks(checks: PackageCheck[]): string {
  const lines: string[] = [];
  for (const check of checks) {
    const unpacked = check.files.reduce((total, file) => total + file.size, 0);
    lines.push(
      `${check.name}@${check.version}: ${check.tarball}`,
      `  ${kilobytes(check.packedSize)} packed, ${kilobytes(unpacked)} unpacked, ${check.files.length} files`,
    );
    const width = Math.max(...check.files.map((file) => kilobytes(file.size).length));
    for (const file of check.files) lines.push(`    ${kilobytes(file.size).padStart(width)}  ${file.path}`);
    lines.push(`  publint --strict: ${check.publint.ok ? 'ok' : 'FAILED'}`);
    for (const message of check.publint.messages) lines.push(`    ${message}`);
    const skipped = check.attw.notModules.length > 0 ? ` (data files, not modules: ${check.attw.notModules.join(', ')})` : '';
    lines.push(`  attw --profile esm-only: ${check.attw.ok ? 'ok' : 'FAILED'}${skipped}`);
    if (!check.attw.ok) lines.push(...check.attw.output.split('\n').map((line) => `    ${line}`));
    lines.push('');
  }
  const failed = checks.filter((check) => !check.publint.ok || !check.attw.ok).map((check) => check.name);
  lines.push(
    `${checks.length} packages packed; ${failed.length === 0 ? 'every check passed' : `checks failed for ${failed.join(', ')}`}. Nothing was published.`,
  );
  return `${lines.join('\n')}\n`;
}

export async function releaseDry(workspaceRoot: string, options: { build: boolean; outDir: string }): Promise<PackageCheck[]> {
  const packages = releasablePackages(workspaceRoot);
  if (packages.length === 0) throw new Error('no workspace package is releasable (every one is private)');
  if (options.build) {
    const filters = packages.flatMap((workspacePackage) => ['--filter', `${workspacePackage.name}...`]);
    // The build's log goes to stderr: stdout is the report.
    execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...filters], {
      cwd: workspaceRoot,
      stdio: ['ignore', process.stderr, process.stderr],
    });
  }
  const checks: PackageCheck[] = [];
  for (const workspacePackage of packages) checks.push(await checkPackage(workspacePackage, options.outDir));
  return checks;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { 'no-build': { type: 'boolean' }, out: { type: 'string' } } });
    const workspaceRoot = run('git', ['rev-parse', '--show-toplevel'], process.cwd()).trim();
    const outDir = values.out ? resolve(values.out) : mkdtempSync(join(tmpdir(), 'release-dry-'));
    const checks = await releaseDry(workspaceRoot, { build: !values['no-build'], outDir });
    process.stdout.write(formatChecks(checks));
    process.exitCode = checks.every((check) => check.publint.ok && check.attw.ok) ? 0 : 1;
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ code: 'RELEASE_DRY_RUN_FAILED', error: (error as Error).message, details: null })}\n`);
    process.exitCode = 2;
  }
}
