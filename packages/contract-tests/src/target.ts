/**
 * The target of a run, from the environment:
 *
 * - `GATEWAY_TARGET=mock`    starts the Prism mock (`startMock`) on a free port;
 * - `GATEWAY_TARGET=server`  starts the sandbox server (`startServer`, in-memory storage) on a free port;
 * - `GATEWAY_TARGET=staging` uses `GATEWAY_STAGING_URL` (opt-in), read-only unless `GATEWAY_ALLOW_WRITES=1`;
 *   `GATEWAY_CAPABILITIES` adds to what a staging is taken to offer (a staging the suite has to
 *   itself may offer the sandbox controls that act on every user: the clock, faults, prices);
 * - `GATEWAY_BASE_URL=<url>` uses a running gateway at that address; with `GATEWAY_TARGET` it is
 *   taken as that kind of target, otherwise as a `custom` one whose capabilities come from
 *   `GATEWAY_CAPABILITIES` (comma-separated names, see capabilities.ts).
 *
 * `GATEWAY_API_KEY`, when set, is sent as `Authorization: Bearer <key>` on every request;
 * `GATEWAY_SANDBOX_KEY`, the operator's sandbox key, as `X-Sandbox-Key` on every sandbox control call
 * (a sandbox reached from off its machine refuses the controls without it).
 */
import { parseCapabilities, type Capability } from './capabilities.js';

export type TargetName = 'mock' | 'server' | 'staging' | 'custom';

export interface TargetInfo {
  name: TargetName;
  url: string;
  apiKey?: string | undefined;
  sandboxKey?: string | undefined;
  capabilities: Capability[];
}

export interface StartedTarget extends TargetInfo {
  stop(): Promise<void>;
}

type Env = Record<string, string | undefined>;

function capabilitiesOf(name: TargetName, env: Env): Capability[] {
  const writes = env.GATEWAY_ALLOW_WRITES === '1';
  switch (name) {
    case 'mock':
      return ['writes', 'serves examples on request', 'sends full error bodies'];
    case 'server':
      return [
        'writes',
        'keeps state',
        'applies business rules',
        'can advance the simulated chain',
        'can settle its own orders',
        'can be driven to its rate limit',
        'can inject faults',
        'can move prices',
        'sends full error bodies',
      ];
    case 'staging':
      return [
        ...new Set<Capability>([
          'keeps state',
          'applies business rules',
          ...(writes ? (['writes'] as const) : []),
          ...parseCapabilities(env.GATEWAY_CAPABILITIES ?? ''),
        ]),
      ];
    case 'custom':
      return parseCapabilities(env.GATEWAY_CAPABILITIES ?? '');
  }
}

export async function startTarget(env: Env = process.env): Promise<StartedTarget> {
  const requested = env.GATEWAY_TARGET;
  if (requested !== undefined && !['mock', 'server', 'staging'].includes(requested)) {
    throw new Error(`GATEWAY_TARGET must be mock, server or staging, not "${requested}"`);
  }
  const baseUrl = env.GATEWAY_BASE_URL;
  const name: TargetName = (requested as TargetName | undefined) ?? (baseUrl ? 'custom' : 'mock');
  const apiKey = env.GATEWAY_API_KEY || undefined;
  const sandboxKey = env.GATEWAY_SANDBOX_KEY || undefined;
  const capabilities = capabilitiesOf(name, env);
  const described = (url: string, stop: () => Promise<void>): StartedTarget => ({
    name,
    url: url.replace(/\/+$/, ''),
    apiKey,
    sandboxKey,
    // The rate-limit burst is sent from 127.0.0.2, which reaches only a target on this machine.
    capabilities: capabilities.filter((capability) => capability !== 'can be driven to its rate limit' || isLoopback(url)),
    stop,
  });

  if (baseUrl) return described(baseUrl, async () => undefined);
  switch (name) {
    case 'mock': {
      const { startMock } = await import('@swap-gateway/mock');
      const mock = await startMock({ port: 0 });
      return described(mock.url, () => mock.stop());
    }
    case 'server': {
      const server = await startSandboxServer();
      return described(server.url, () => server.close());
    }
    case 'staging': {
      const url = env.GATEWAY_STAGING_URL;
      if (!url)
        throw new Error(
          'the staging target is opt-in: set GATEWAY_STAGING_URL to the staging base address (and GATEWAY_ALLOW_WRITES=1 to let the suite create orders there)',
        );
      return described(url, async () => undefined);
    }
    default:
      throw new Error('a custom target needs GATEWAY_BASE_URL');
  }
}

function isLoopback(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || /^127\./.test(hostname) || hostname === '[::1]';
}

interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The sandbox server of @swap-gateway/server, on a free port with in-memory storage. */
async function startSandboxServer(): Promise<RunningServer> {
  // Imported by name at run time: the server package is built by its own engineer and the mock
  // target must not depend on it. When it is missing, the server target fails here, loudly.
  const specifier = '@swap-gateway/server';
  let module: { startServer?: (options: Record<string, unknown>) => Promise<RunningServer> };
  try {
    module = (await import(specifier)) as typeof module;
  } catch (error) {
    throw new Error(
      `the server target needs @swap-gateway/server built (pnpm turbo run build --filter @swap-gateway/server) and installed as a dependency of the contract tests: ${(error as Error).message}`,
    );
  }
  if (typeof module.startServer !== 'function') throw new Error('@swap-gateway/server does not export startServer()');
  return module.startServer({ host: '127.0.0.1', port: 0, dataDir: ':memory:' });
}
