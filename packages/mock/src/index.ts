/**
 * The Swap Gateway mock: Prism serving the combined V3 + V4 bundle, behind a thin front that
 * answers invalid requests with the document's structured 400 (see front.ts).
 *
 *   const mock = await startMock();        // a free port on 127.0.0.1
 *   await fetch(`${mock.url}/v4/get-routes`);
 *   await mock.stop();                     // Prism is gone when this resolves
 */
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundlePath, loadBundle, type BundleName } from '@swap-gateway/openapi';
import { createFront } from './front.js';
import { startPrism } from './prism.js';
import { supervisePrism, type PrismSupervisor } from './supervisor.js';

export interface MockOptions {
  /** Interface the mock listens on. Default 127.0.0.1. */
  host?: string;
  /** Port the mock listens on; 0 or omitted picks a free one. */
  port?: number;
  /** Generate bodies from the schemas instead of answering the named examples. */
  dynamic?: boolean;
  /** Seed of dynamic generation: the same seed answers the same sequence of bodies. */
  seed?: string | number;
  /** Which bundle to serve. Default `gateway` (V3 and V4). */
  bundle?: BundleName;
  /** Receives Prism's log lines, and the mock's own about Prism (a restart, a request Prism failed). */
  log?: (line: string) => void;
  /** How often Prism may be restarted within a minute after dying before the mock gives up (see `failed`). Default 3. */
  maxPrismRestarts?: number;
}

export interface RunningMock {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** Process id of the running Prism child (a new one after a restart). */
  readonly prismPid: number;
  /**
   * Resolves with the reason if Prism could not be kept running; the mock has then closed its port
   * rather than answer every request with an error. Never resolves otherwise.
   */
  failed: Promise<Error>;
  /** Closes the front and ends Prism; resolves once the Prism process has exited. */
  stop(): Promise<void>;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const bundle = options.bundle ?? 'gateway';
  // Prism watches its document and restarts when it changes (a rebuild of the bundle would drop
  // requests mid-run), so it serves a private copy taken now.
  const snapshotDir = mkdtempSync(join(tmpdir(), 'swap-gateway-mock-'));
  const documentFile = join(snapshotDir, `${bundle}.json`);
  copyFileSync(bundlePath(bundle, 'json'), documentFile);
  const document = loadBundle(bundle);
  const removeSnapshot = () => rmSync(snapshotDir, { recursive: true, force: true });

  let prism: PrismSupervisor;
  try {
    const start = async () =>
      startPrism({
        document: documentFile,
        port: await freePort(),
        dynamic: options.dynamic ?? false,
        seed: options.seed,
        log: options.log,
      });
    prism = await supervisePrism(start, options.maxPrismRestarts ?? 3, options.log);
  } catch (error) {
    removeSnapshot();
    throw error;
  }
  const front = createFront({ document, upstream: () => prism.current(), dynamic: options.dynamic ?? false, log: options.log });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      front.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => front.close(() => resolve())), prism.stop()]);
      removeSnapshot();
    })());

  try {
    front.listen(options.port ?? 0, host);
    await once(front, 'listening');
    const { port } = front.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    await waitUntilAnswering(url);
    // A mock whose Prism cannot be kept running stops listening, so that nobody mistakes it for a gateway.
    const failed = prism.failed.then(async (error) => {
      await stop();
      return error;
    });
    return {
      url,
      get prismPid() {
        return prism.pid();
      },
      failed,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A port nobody listens on right now, for Prism behind the front. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Prism says it listens once its routes are loaded; one real answer through the front confirms it. */
async function waitUntilAnswering(url: string, attempts = 50): Promise<void> {
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const response = await fetch(`${url}/v4/get-routes`);
      await response.arrayBuffer();
      if (response.ok) return;
      last = new Error(`GET /v4/get-routes answered ${response.status}`);
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the mock at ${url} does not answer: ${String(last)}`);
}
