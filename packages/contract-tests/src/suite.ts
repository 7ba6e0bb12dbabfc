/**
 * What a test file needs: the target of the run, its gateway and sandbox controls, and
 * `contractTest`, which declares the capabilities a test needs so that a target lacking one skips
 * it with the reason.
 */
import { inject, it, type TestContext } from 'vitest';
import type { Capability } from './capabilities.js';
import { LiquidityShortage } from './flows.js';
import { connectTarget } from './gateway.js';
import { sandboxControls } from '@swap-gateway/test-support/sandbox';

export const target = inject('gateway');
export const gateway = connectTarget(target.url, {
  apiKey: target.apiKey,
  fullErrorBodies: target.capabilities.includes('sends full error bodies'),
});
export const sandbox = sandboxControls(target.url, target);

/** What the reporter reads from each test (vitest carries task meta to the reporter process). */
export interface ContractMeta {
  target: string;
  requires: Capability[];
  missing: Capability[];
}

export function has(capability: Capability): boolean {
  return target.capabilities.includes(capability);
}

/**
 * A test of the contract. Against a gateway whose market maker cannot fill one more order (a
 * long-lived staging, shared with others), the test is skipped with the gateway's answer as the
 * reason rather than failed: that is the gateway's state, not a break of the contract.
 */
export function contractTest(
  name: string,
  requires: Capability[],
  body: (context: TestContext) => Promise<void>,
  timeoutMs?: number,
): void {
  const missing = requires.filter((capability) => !has(capability));
  const meta: ContractMeta = { target: target.name, requires, missing };
  it(name, { skip: missing.length > 0, meta: meta as never, ...(timeoutMs && { timeout: timeoutMs }) }, async (context) => {
    try {
      await body(context);
    } catch (error) {
      if (error instanceof LiquidityShortage) context.skip(error.message);
      throw error;
    }
  });
}
