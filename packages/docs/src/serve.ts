/**
 * Serves the built site from disk on the loopback interface, as a static host would: `pnpm --filter
 * @swap-gateway/docs serve [--port N]` to preview it, and the browser tests' server. Files only, no
 * directory listings; a folder answers its index.html, a path with no file the site's 404.html with
 * status 404. Every file found goes with an ETag, and a request that names it (a browser asking
 * again for what it has) is answered 304, Not Modified, while the file is the same. Every file goes
 * with its type (`llms.txt` as text, the Markdown copies as Markdown, so that a browser shows them
 * rather than downloads them) and, for a client that accepts it, compressed with Brotli or gzip (the
 * V4 reference is one HTML page of 2.7 MB). As a static host with precompressed files does (nginx's
 * gzip_static), it sends the `.br` or `.gz` file the build wrote beside each text file
 * (`precompressSite`), and compresses nothing itself: Brotli of the two references and Swagger UI's
 * script cost 1.6 s of CPU at each start of the server, three starts a test run.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defaultOutput } from './paths.js';

export const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Types worth compressing: text. */
const compressible = (type: string) => /^text\/|^application\/(json|yaml|javascript)|^image\/svg\+xml/.test(type);

type Encoding = 'br' | 'gzip';

/** The file beside a text file that holds it compressed in each encoding. */
const compressedFile = (file: string, encoding: Encoding) => `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
/** Brotli at quality 7: the V4 reference in 629 kB against 622 kB at 9, for a third of the CPU (129 ms against 399 ms). */
const compressors: Record<Encoding, (raw: Buffer) => Promise<Buffer>> = {
  br: (raw) => promisify(brotliCompress)(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 7 } }),
  gzip: (raw) => promisify(gzip)(raw, { level: 9 }),
};

/**
 * Writes every text file of the built site compressed beside it, in each encoding (`v4.html.br`,
 * `v4.html.gz`), for `serveSite` or a static host to send as they are. The files compress at once, on
 * zlib's threads: both cores.
 */
export async function precompressSite(root: string): Promise<void> {
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && compressible(contentTypes[extname(entry.name)] ?? ''))
    .map((entry) => join(entry.parentPath, entry.name));
  await Promise.all(
    files.flatMap((file) =>
      (Object.keys(compressors) as Encoding[]).map(async (encoding) =>
        writeFileSync(compressedFile(file, encoding), await compressors[encoding](readFileSync(file))),
      ),
    ),
  );
}

/** The encoding to answer with, from the request's Accept-Encoding: Brotli first, then gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Map(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*q=/))
      .filter(([name]) => name)
      .map(([name = '', q]) => [name.toLowerCase(), q === undefined ? 1 : Number(q)] as const),
  );
  const allowed = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return allowed('br') ? 'br' : allowed('gzip') ? 'gzip' : undefined;
}

/** A file's version as a static host names it: its size and modification time (nginx's ETag). */
function entityTag(file: string): string {
  const { size, mtimeMs } = statSync(file);
  return `"${Math.floor(mtimeMs / 1000).toString(16)}-${size.toString(16)}"`;
}

export interface ServedSite {
  url: string;
  close(): Promise<void>;
}

export async function serveSite({ root = defaultOutput, host = '127.0.0.1', port = 0 } = {}): Promise<ServedSite> {
  if (!existsSync(join(root, 'index.html'))) throw new Error(`${root} has no index.html: build the site first (pnpm docs)`);

  function resolve(pathname: string): { file: string; status: number } | undefined {
    let file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (existsSync(file) && statSync(file).isFile()) return { file, status: 200 };
    const notFound = join(root, '404.html');
    return existsSync(notFound) ? { file: notFound, status: 404 } : { file: '', status: 404 };
  }

  const server = createServer((request: IncomingMessage, response) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('bad request');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed');
      return;
    }
    const found = resolve(pathname);
    if (!found) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('forbidden');
      return;
    }
    if (!found.file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${pathname}`);
      return;
    }
    const type = contentTypes[extname(found.file)] ?? 'application/octet-stream';
    const accepted = compressible(type) ? chooseEncoding(request.headers['accept-encoding']) : undefined;
    // A file the build did not compress (a site built before precompressSite) goes as it is.
    const encoding = accepted && existsSync(compressedFile(found.file, accepted)) ? accepted : undefined;
    const sent = encoding ? compressedFile(found.file, encoding) : found.file;
    const headers = {
      'cache-control': 'no-cache',
      ...(compressible(type) ? { vary: 'Accept-Encoding' } : {}),
      ...(found.status === 200 ? { etag: entityTag(sent) } : {}),
    };
    // A browser asks again for what it has (no-cache): the same file is not sent again, and the browser keeps its
    // copy with the code it compiled of it (Swagger UI's 1.7 MB script: the console's test 4.4 s of CPU less, 37.6 to 33.2 s).
    if (found.status === 200 && request.headers['if-none-match'] === headers.etag) {
      response.writeHead(304, headers).end();
      return;
    }
    const content = readFileSync(sent);
    response.writeHead(found.status, {
      ...headers,
      'content-type': type,
      'content-length': content.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : content);
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
