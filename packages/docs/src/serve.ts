/**
 * Serves the built site from disk on the loopback interface: `pnpm --filter
 * @swap-gateway/docs serve [--port N]` to preview it, and the browser test's
 * server. Files only, no directory listings; a folder answers its index.html.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultOutput } from './paths.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface ServedSite {
  url: string;
  close(): Promise<void>;
}

export async function serveSite({ root = defaultOutput, host = '127.0.0.1', port = 0 } = {}): Promise<ServedSite> {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${root} has no index.html: build the site first (pnpm docs)`);
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    let file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${pathname}`);
      return;
    }
    response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/`,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `pnpm serve -- --port N` passes the `--` through; it separates nothing here.
  const args = process.argv.slice(2).filter((argument) => argument !== '--');
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string', default: '4000' }, host: { type: 'string', default: '127.0.0.1' } },
  });
  const site = await serveSite({ host: values.host, port: Number(values.port) });
  console.log(`docs: serving ${defaultOutput} at ${site.url} (Ctrl-C to stop)`);
}
