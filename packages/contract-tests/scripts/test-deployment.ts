/**
 * `pnpm test:deployment` (part of the package's `test`, so of `pnpm test` and CI): starts the
 * staging-like deployment (src/deployment.ts: the server as two processes on PostgreSQL, a key
 * from the operator command, the operator's sandbox key), runs the suite against it as the staging target
 * (`GATEWAY_STAGING_URL`, `GATEWAY_API_KEY`, `GATEWAY_ALLOW_WRITES=1`, and the sandbox controls it
 * may use, `GATEWAY_CAPABILITIES`), and stops it.
 * Without PostgreSQL installed it says why and runs nothing, as the server's PostgreSQL tests do.
 */
import { deploymentCapabilities, missingPostgres, startDeployment } from '../src/deployment.js';
import { runSuite } from '../src/run-suite.js';

const missing = missingPostgres();
if (missing) {
  console.log(`staging target: skipped, the staging-like deployment needs PostgreSQL (${missing})`);
  process.exit(0);
}

const deployment = await startDeployment();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void deployment.stop().finally(() => process.exit(1)));
let status = 1;
try {
  const apiKey = await deployment.issueKey('contract-suite');
  console.log(`staging target: the gateway server as two processes on PostgreSQL at ${deployment.url}, with a key issued by keys:issue`);
  status = await runSuite({
    GATEWAY_TARGET: 'staging',
    GATEWAY_STAGING_URL: deployment.url,
    GATEWAY_API_KEY: apiKey,
    GATEWAY_SANDBOX_KEY: deployment.sandboxKey,
    GATEWAY_ALLOW_WRITES: '1',
    GATEWAY_CAPABILITIES: deploymentCapabilities,
  });
} finally {
  await deployment.stop();
}
process.exit(status);
