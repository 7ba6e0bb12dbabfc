/**
 * What a test file needs: the target of the run, its gateway, and `contractTest`, which declares
 * the capabilities a test needs so that a target lacking one skips it with the reason.
 */
import { inject, it, type TestContext } from 'vitest';
import type { Capability } from './capabilities.js';
import { createGateway } from './gateway.js';

export const target = inject('gateway');
export const gateway = createGateway(target.url, { apiKey: target.apiKey, fullErrorBodies: target.capabilities.includes('sends full error bodies') });

/** What the reporter reads from each test (vitest carries task meta to the reporter process). */
export interface ContractMeta {
  target: string;
  requires: Capability[];
  missing: Capability[];
}

export function has(capability: Capability): boolean {
  return target.capabilities.includes(capability);
}

export function contractTest(name: string, requires: Capability[], body: (context: TestContext) => Promise<void>, timeoutMs?: number): void {
  const missing = requires.filter((capability) => !has(capability));
  const meta: ContractMeta = { target: target.name, requires, missing };
  it(name, { skip: missing.length > 0, meta: meta as never, ...(timeoutMs && { timeout: timeoutMs }) }, body);
}
