/** Where the package keeps its sources and writes the site. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = fileURLToPath(new URL('../', import.meta.url));
/** The built site: `pnpm docs` writes it, `pnpm docs:serve` and the browser test serve it. */
export const defaultOutput = join(packageRoot, 'dist');
/** Screenshots the browser test saves (not committed). */
export const screenshotsDirectory = join(packageRoot, 'screenshots');

/**
 * Where the site is published, for the absolute addresses of llms.txt and the Markdown copies, and the
 * root of the 404 page: DOCS_SITE_URL at build time (`https://docs.example.com/`, or with a path for a
 * site in a folder of its host), else where `pnpm docs:serve` previews it.
 */
export const siteUrl = siteUrlFrom(process.env.DOCS_SITE_URL);

export function siteUrlFrom(value: string | undefined): string {
  const url = new URL(value || 'http://127.0.0.1:4000/');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`DOCS_SITE_URL ${value} is not an http(s) address`);
  if (url.search || url.hash) throw new Error(`DOCS_SITE_URL ${value} has a query or a fragment`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}
