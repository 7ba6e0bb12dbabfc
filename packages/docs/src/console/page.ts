/**
 * The request console pages (`reference/v4-console.html`, `reference/v3-console.html`): Swagger UI
 * from swagger-ui-dist, copied into the site's assets, with the version's document inlined (so the
 * page works opened from disk too) and the gateways a reader can send to as its servers: the local
 * sandbox (`pnpm server`, the default), the mock (`pnpm mock`) or any base URL. Each answer shows its
 * status and headers (Swagger UI) and whether it keeps the document's contract (try-it.ts).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import type { OpenApiDocument } from '@swap-gateway/openapi';
import { publishedOperations, type ApiVersion } from '../document.js';
import { forIntegrators } from '../integrator-text.js';
import { headAssets, relativize, siteHeader } from '../site.js';

const require = createRequire(import.meta.url);

export const consolePages: Record<ApiVersion, { href: string; title: string }> = {
  v4: { href: 'reference/v4-console.html', title: 'Try V4 in the console' },
  v3: { href: 'reference/v3-console.html', title: 'Try V3 in the console (legacy)' },
};

/** The gateways the console offers, in the order of its server menu (the first is the default). */
const consoleGateways = [
  { url: 'http://127.0.0.1:8080', description: 'Local sandbox (pnpm server)' },
  { url: 'http://127.0.0.1:4010', description: 'Mock of the API (pnpm mock)' },
  {
    url: '{baseUrl}',
    description: 'Any base URL',
    variables: { baseUrl: { default: 'http://127.0.0.1:8080', description: 'The base address of a gateway that allows this page (CORS)' } },
  },
];

/** Swagger UI's files the site ships, from swagger-ui-dist. */
export const swaggerUiAssets = ['swagger-ui-bundle.js', 'swagger-ui.css'];
export const swaggerUiDirectory = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The version's bundle as the console receives it: the gateways above as its servers, as integrators read it (integrator-text.ts). */
function consoleDocument(bundle: OpenApiDocument, version: ApiVersion): OpenApiDocument {
  const document = forIntegrators(bundle);
  document.servers = consoleGateways;
  document.info.title = version === 'v3' ? 'Swap Gateway API V3 (legacy): console' : 'Swap Gateway API V4: console';
  return document;
}

/** Where an operation opens in the console (Swagger UI's deep link: `#/<tag>/<operationId>`). */
export function consoleAnchor(document: OpenApiDocument, operationId: string): string {
  const operation = publishedOperations(document).find((candidate) => candidate.operationId === operationId);
  const tag = (operation?.definition.tags as string[] | undefined)?.[0] ?? 'default';
  return `#/${encodeURIComponent(tag.replace(/\s/g, '_'))}/${operationId}`;
}

export function consolePage(bundle: OpenApiDocument, version: ApiVersion): string {
  const page = consolePages[version];
  const document = consoleDocument(bundle, version);
  // Inlined as a script: `</` cannot close the script element early.
  const spec = JSON.stringify(document).replace(/</g, '\\u003c');
  return relativize(
    `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Swap Gateway API</title>
<link rel="icon" href="/assets/logo.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/swagger-ui/swagger-ui.css">
<link rel="stylesheet" href="/assets/console.css">
${headAssets}
</head>
<body class="console">
${siteHeader(page.href)}
<main class="console-intro">
<h1>${page.title}</h1>
<p>Send any operation to a gateway you choose under <strong>Servers</strong>: the local sandbox
(<code>pnpm server</code>, http://127.0.0.1:8080, the default), the mock (<code>pnpm mock</code>,
http://127.0.0.1:4010) or any base URL. The API key is optional (<strong>Authorize</strong>). Every
answer shows its status and headers, and whether it matches the document. Every quote get-quote
answers is kept: <strong>Use the last quote</strong> in create-order sends it back unchanged. The page
sends requests only to the gateway you choose; the sandbox and the mock allow this page's origin, and
opened from disk it reaches the mock, or a sandbox started with <code>GATEWAY_CORS_FILE_ORIGIN=1 pnpm server</code>. <a href="/${version === 'v4' ? 'reference/v4.html' : 'reference/v3.html'}">Back to the reference</a>.</p>
</main>
<div id="console"></div>
<script src="/assets/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/assets/try-it.js"></script>
<script>swapGatewayConsole({ spec: ${spec}, domId: '#console' });</script>
</body>
</html>
`,
    page.href,
  );
}

/** Bundles try-it.ts with Ajv, the shared schema validator and the document model into one script for the browser. */
export async function bundleConsoleScript(outputFile: string): Promise<void> {
  await build({
    entryPoints: [join(dirname(new URL(import.meta.url).pathname), 'try-it.ts')],
    outfile: outputFile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    // @swap-gateway/openapi's `browser` entry: its model and validator, not the bundle files it reads from disk in Node.
    logLevel: 'error',
  });
}
