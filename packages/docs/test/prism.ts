/**
 * The Prism mock of the combined bundle, for the samples to run against: started as TOOLCHAIN.md
 * says (node on Prism's own entry point, so that stopping it stops Prism), on a free loopback port.
 * Stands in for @swap-gateway/mock's startMock() until that package lands.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { bundlePath } from '@swap-gateway/openapi';

const prismEntry = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPrism(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [prismEntry, 'mock', bundlePath('gateway', 'json'), '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // Prism prints its routes, then listens; poll until it answers (bounded: 60 tries, 30 s).
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(`${url}/v4/get-routes`);
      break;
    } catch {
      if (attempt >= 60) {
        child.kill();
        throw new Error(`Prism did not listen on ${url} within 30 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
