/**
 * Starts the target once for the whole run (the mock or a server on a free port) and stops it at
 * the end. Test files receive it with `inject('gateway')`.
 */
import type { TestProject } from 'vitest/node';
import { startTarget, type TargetInfo } from './target.js';

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: TargetInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const target = await startTarget();
  const { stop, ...info } = target;
  project.provide('gateway', info);
  console.log(`contract tests against ${info.name} at ${info.url} (capabilities: ${info.capabilities.join(', ') || 'none'})`);
  return stop;
}
