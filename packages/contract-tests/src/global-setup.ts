/**
 * Starts the target once for the whole run (the mock or a server on a free port) and stops it at
 * the end. Test files receive it with `inject('gateway')`.
 */
import type { TestProject } from 'vitest/node';
import { targetProblem } from './preflight.js';
import { offersSandboxControls } from '@swap-gateway/test-support/sandbox';
import { startTarget, type TargetInfo } from './target.js';

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: TargetInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const target = await startTarget();
  const { stop, ...info } = target;
  const problem = await targetProblem(info);
  if (problem) {
    // One line and the end of the run: no test can tell more than this one answer did.
    await stop();
    process.stderr.write(`contract tests: ${problem}\n`);
    process.exit(1);
  }
  // A staging that offers the per-order sandbox control lets the suite release what it reserved.
  if (info.name === 'staging' && (await offersSandboxControls(info.url, info))) info.capabilities.push('can settle its own orders');
  project.provide('gateway', info);
  console.log(`contract tests against ${info.name} at ${info.url} (capabilities: ${info.capabilities.join(', ') || 'none'})`);
  return stop;
}
