/**
 * A staging-like deployment of the gateway on this machine, started the way an operator deploys
 * it: a PostgreSQL cluster (Debian's, a throwaway one), API keys issued with the operator command
 * (`keys:issue` of @swap-gateway/server), and the server as two processes on that database
 * (`--workers 2`: connections go to either), so that whatever one process is told the other must
 * answer alike. Its sandbox controls need the operator's key (`GATEWAY_SANDBOX_OPERATOR_KEY`), as a
 * shared staging's do. The contract suite then reaches it only through its URL and a key, as it reaches a
 * real staging.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { apiKeyLength } from '@swap-gateway/openapi';
import { findPostgres, startPostgres } from '@swap-gateway/test-support/postgres';
import { startProcess, type StartedProcess } from '@swap-gateway/test-support/processes';

export interface Deployment {
  url: string;
  /** The operator's key of the sandbox controls, for X-Sandbox-Key. */
  sandboxKey: string;
  /** Issues one more key with the operator command (another client of the same deployment). */
  issueKey(label: string): Promise<string>;
  stop(): Promise<void>;
}

export function missingPostgres(): string | undefined {
  const postgres = findPostgres();
  return 'missing' in postgres ? postgres.missing : undefined;
}

/** Server processes of the deployment. */
const workers = 2;

/**
 * What the suite may do to this deployment beyond a shared staging: it has the deployment to
 * itself, so it may use the sandbox controls that act on every user (the clock, faults, prices),
 * and the deployment is the sandbox server, which sends full error bodies.
 */
export const deploymentCapabilities = [
  'can advance the simulated chain',
  'can inject faults',
  'can move prices',
  'sends full error bodies',
].join(',');

const serverDir = dirname(dirname(createRequire(import.meta.url).resolve('@swap-gateway/server')));
const startupTimeoutMs = 30_000;

/**
 * Throws, saying why, when PostgreSQL is not installed (`missingPostgres()` tells beforehand).
 * `settings` are the server's environment settings an operator would give (e.g. rate limits).
 */
export async function startDeployment(settings: Record<string, string> = {}): Promise<Deployment> {
  const postgres = findPostgres();
  if ('missing' in postgres) throw new Error(`the staging-like deployment needs PostgreSQL: ${postgres.missing}`);
  const cluster = await startPostgres(postgres);
  const sandboxKey = randomBytes(24).toString('base64url');
  const env = {
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    GATEWAY_SANDBOX_OPERATOR_KEY: sandboxKey,
    ...settings,
    DATABASE_URL: cluster.url,
  };
  let server: StartedProcess;
  try {
    server = await startProcess({
      command: process.execPath,
      args: (port) => [join(serverDir, 'dist/main.js'), '--host', '127.0.0.1', '--port', String(port), '--workers', String(workers)],
      env,
      probePath: '/health',
      output: 'inherit',
      startTimeoutMs: startupTimeoutMs,
    });
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return {
    url: server.url,
    sandboxKey,
    issueKey: (label) => issueKey(env, label),
    stop: async () => {
      await server.stop();
      await cluster.stop();
    },
  };
}

/** The operator command of the README (`pnpm --filter @swap-gateway/server keys:issue`); it prints the key alone on stdout. */
async function issueKey(env: NodeJS.ProcessEnv, label: string): Promise<string> {
  const { stdout } = await promisify(execFile)('pnpm', ['--silent', 'keys:issue', '--label', label], {
    cwd: serverDir,
    env,
    timeout: startupTimeoutMs,
  });
  const key = stdout.trim().split('\n').pop() ?? '';
  if (!new RegExp(`^[A-Za-z0-9_-]{${apiKeyLength}}$`).test(key)) throw new Error(`keys:issue printed no key: ${stdout.slice(0, 200)}`);
  return key;
}
