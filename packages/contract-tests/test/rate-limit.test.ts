/**
 * The documented 429: once a client has spent its rate limit, every operation answers 429 with
 * Retry-After and the error body. The burst comes from another loopback address, so the limit of
 * the rest of the suite (sent from 127.0.0.1) is untouched.
 */
import { expect } from 'vitest';
import { operations } from '../src/document.js';
import { exampleRequest } from '../src/inputs.js';
import { contractTest, gateway } from '../src/suite.js';

const burstFrom = '127.0.0.2';
const maxBurst = 5_000;

contractTest(
  'every operation answers 429 with Retry-After once the limit is spent',
  ['can be driven to its rate limit', 'writes'],
  async () => {
    let sent = 0;
    let status = 0;
    while (sent < maxBurst && status !== 429) {
      ({ status } = await gateway.send({ path: '/v4/get-routes', from: burstFrom }));
      sent++;
    }
    expect(status, `no 429 after ${sent} requests`).toBe(429);
    for (const op of operations) {
      const answer = await gateway.send<{ code: string }>({ ...exampleRequest(op), from: burstFrom });
      expect(answer.status, op.operationId).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.code).toBe('EXCEEDED_LIMIT');
    }
  },
  120_000,
);
