/**
 * The documented 500: when the service fails inside, every operation answers INTERNAL_ERROR with
 * the error body and nothing of its internals. The sandbox makes the next request fail.
 */
import { expect } from 'vitest';
import { operations } from '../src/document.js';
import { exampleRequest } from '../src/inputs.js';
import { contractTest, gateway, sandbox } from '../src/suite.js';

contractTest('every operation answers an internal fault with 500 INTERNAL_ERROR and leaks nothing', ['can inject faults'], async () => {
  for (const op of operations) {
    await sandbox.injectFaults(1);
    const answer = await gateway.send<{ code: string; error: string; details?: unknown }>({
      ...exampleRequest(op),
      serverErrorRequested: true,
    });
    expect(answer.status, op.operationId).toBe(500);
    expect(answer.body.code).toBe('INTERNAL_ERROR');
    // The injected fault names a host and port; none of it, nor a stack frame, may reach the client.
    expect(JSON.stringify(answer.body)).not.toMatch(/10\.0\.0\.7|5432|at .+\(.+:\d+:\d+\)|sandbox:/);
  }
});
