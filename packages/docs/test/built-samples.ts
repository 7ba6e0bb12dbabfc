/**
 * The samples as the built pages print them: every labelled sample of a guide page of dist/ (the
 * label names its file), with its code as a reader copies it (the text of the code block: the
 * highlighting's tags dropped, its entities read back), so that the tests run what the page shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultOutput } from '../src/paths.js';

export interface PrintedSample {
  /** The page that prints it, from the site root. */
  page: string;
  language: string;
  /** The file the label names (`samples/v4/getQuoteV4.sh`). */
  relativePath: string;
  /** The code block's text. */
  source: string;
}

/** The text of HTML: tags dropped, entities read back. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const labelled =
  /<p class="sample-label" data-language="([^"]+)">[^<]*<span class="muted">([^<]+)<\/span><\/p>\s*<div class="code-block"><pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g;

/** Every sample printed on the home page and the guides, in page order. */
export function printedSamples(root = defaultOutput): PrintedSample[] {
  const pages = [
    'index.html',
    ...readdirSync(join(root, 'guides'))
      .filter((file) => file.endsWith('.html'))
      .map((file) => `guides/${file}`),
  ];
  return pages.flatMap((page) =>
    [...readFileSync(join(root, page), 'utf8').matchAll(labelled)].map(([, language = '', relativePath = '', code = '']) => ({
      page,
      language,
      relativePath,
      source: htmlText(code),
    })),
  );
}
