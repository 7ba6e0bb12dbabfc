/**
 * The document's own examples against the target: every documented response example, asked for by
 * name where the target serves examples on request (the mock), and the documented example inputs of
 * the read operations, accepted everywhere.
 */
import { describe, expect } from 'vitest';
import { exampleValues, operations } from '../src/document.js';
import { exampleRequest } from '../src/inputs.js';
import { contractTest, gateway } from '../src/suite.js';

describe('every documented response example is served and conforms', () => {
  for (const op of operations) {
    for (const response of Object.values(op.responses)) {
      const examples = exampleValues(response);
      const names = Object.keys(examples);
      contractTest(
        `${op.operationId} ${response.status}: ${names.join(', ') || '(no named example)'}`,
        ['serves examples on request'],
        async () => {
          for (const name of names.length ? names : [undefined]) {
            const answer = await gateway.send({
              ...exampleRequest(op),
              headers: { prefer: name ? `code=${response.status}, example=${name}` : `code=${response.status}` },
              serverErrorRequested: response.status.startsWith('5'),
            });
            expect(answer.status).toBe(Number(response.status));
            if (name) expect(answer.body, `example ${name}`).toEqual(examples[name]);
          }
        },
      );
    }
  }
});

describe("the document's example inputs are accepted", () => {
  const reads = operations.filter((op) => op.method === 'GET' && !op.path.includes('get-order/'));
  for (const op of reads) {
    contractTest(`${op.operationId} with the parameter examples answers 2xx`, [], async () => {
      const answer = await gateway.send(exampleRequest(op));
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(300);
    });
  }

  // The example quotes carry signatures and ids only the mock knows; a stateful target answers them
  // with a documented refusal, which the checker already holds to the document.
  for (const op of operations.filter((candidate) => candidate.requestBody)) {
    for (const name of Object.keys(exampleValues(op.requestBody))) {
      contractTest(`${op.operationId} accepts its request example ${name}`, ['serves examples on request', 'writes'], async () => {
        const answer = await gateway.send(exampleRequest(op, name));
        expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(300);
      });
    }
  }
});
