/**
 * `pnpm docs:serve` serves the built site as a static host does: each file with its type (llms.txt
 * and the Markdown copies as text a browser shows), compressed for a client that accepts Brotli or
 * gzip, the site's 404 page with status 404 for an address the site does not have, and 304 for a
 * file the browser has.
 */
import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOutput } from '../src/paths.js';
import { chooseEncoding, serveSite, type ServedSite } from '../src/serve.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http, which (unlike fetch) neither asks for nor undoes a compression by itself. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('the static server of the built site (pnpm docs:serve)', () => {
  let site: ServedSite;
  beforeAll(async () => {
    site = await serveSite();
  });
  afterAll(() => site?.close());

  it('sends llms.txt as text and the Markdown files as Markdown, which a browser shows', async () => {
    for (const [path, type] of [
      ['llms.txt', 'text/plain; charset=utf-8'],
      ['llms-full.md', 'text/markdown; charset=utf-8'],
      ['guides/quickstart.html.md', 'text/markdown; charset=utf-8'],
      ['index.html', 'text/html; charset=utf-8'],
      ['openapi/gateway.yaml', 'application/yaml; charset=utf-8'],
      ['assets/logo.svg', 'image/svg+xml'],
    ]) {
      const answer = await get(`${site.url}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type'], path).toBe(type);
    }
  });

  it('compresses with Brotli or gzip as the client accepts, the V4 reference to a fraction of its 2.7 MB', async () => {
    const file = join(defaultOutput, 'reference', 'v4.html');
    const raw = readFileSync(file);
    expect(raw.length).toBe(statSync(file).size);
    const plain = await get(`${site.url}reference/v4.html`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);
    const br = await get(`${site.url}reference/v4.html`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);
    const gzip = await get(`${site.url}reference/v4.html`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(raw)).toBe(true);
    console.log(
      `reference/v4.html: ${(raw.length / 1e6).toFixed(2)} MB, ${(gzip.body.length / 1e3).toFixed(0)} kB gzip, ${(br.body.length / 1e3).toFixed(0)} kB Brotli`,
    );
    expect(br.body.length).toBeLessThan(raw.length / 4);
    expect(gzip.body.length).toBeLessThan(raw.length / 3);
  });

  it('answers an address the site does not have with its 404 page and status 404', async () => {
    for (const path of ['guides/no-such-guide.html', 'v4', 'no/such/folder/']) {
      const answer = await get(`${site.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body.toString()).toContain('Page not found');
    }
    expect((await get(`${site.url}../package.json`)).status).not.toBe(200);
    const head = await get(`${site.url}llms.txt`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await get(`${site.url}llms.txt`, {}, 'POST')).status).toBe(405);
  });

  it('answers 304, Not Modified, to a request that names the version of the file it has', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }] as Array<Record<string, string>>) {
      const first = await get(`${site.url}assets/swagger-ui/swagger-ui-bundle.js`, headers);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await get(`${site.url}assets/swagger-ui/swagger-ui-bundle.js`, {
        ...headers,
        'if-none-match': String(first.headers.etag),
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect((await get(`${site.url}assets/swagger-ui/swagger-ui-bundle.js`, { ...headers, 'if-none-match': '"0-0"' })).status).toBe(200);
    }
    // The plain file and its Brotli copy are two versions: each its own tag.
    const [plain, br] = await Promise.all([get(`${site.url}index.html`), get(`${site.url}index.html`, { 'accept-encoding': 'br' })]);
    expect(plain.headers.etag).not.toBe(br.headers.etag);
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('*')).toBe('br');
  });
});
