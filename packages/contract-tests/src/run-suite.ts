/** Runs the contract suite (vitest) as a child process with the given target variables; resolves to its exit code. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export async function runSuite(variables: Record<string, string>): Promise<number> {
  const child = spawn('vitest', ['run'], { env: { ...process.env, ...variables }, stdio: 'inherit' });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return signal ? 1 : (code ?? 1);
}
