/**
 * Markdown to HTML for the guides, at build time: GitHub-style tables and
 * heading ids (marked, marked-gfm-heading-id), code highlighted by
 * highlight.js, and the site's own link forms checked and rewritten:
 * `op:getQuoteV4` opens an operation in its reference, `err:CODE` a row of the
 * errors table, `/path` a page of the site.
 */
import hljs from 'highlight.js';
import { Marked, type Tokens } from 'marked';
import { getHeadingList, gfmHeadingId } from 'marked-gfm-heading-id';
import { markedHighlight } from 'marked-highlight';

export interface Heading {
  id: string;
  level: number;
  text: string;
}

export interface RenderedMarkdown {
  title: string;
  html: string;
  headings: Heading[];
  /** The source with its links rewritten as the page has them (for llms-full.md). */
  markdown: string;
}

/** Rewrites one link target; throws when it names something the site does not have. */
export type LinkResolver = (href: string) => string;

/**
 * Every table in a box of its own that scrolls sideways, so that a table wider than a phone's screen
 * scrolls inside the page instead of widening it. The box is focusable (keyboard users scroll it) and
 * named by the table's column headings.
 */
function scrollingTables(html: string): string {
  return html.replace(/<table>([\s\S]*?)<\/table>/g, (table, inner: string) => {
    const headings = [...(/<thead>([\s\S]*?)<\/thead>/.exec(inner)?.[1] ?? '').matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)]
      .map((cell) => (cell[1] ?? '').replace(/<[^>]+>/g, '').trim())
      .filter(Boolean);
    const label = `Table: ${headings.join(', ') || 'no headings'}`.replace(/"/g, '&quot;');
    // A cell of prose (more than a few words) is marked, for the stylesheet to keep it readable on a phone.
    const marked = table.replace(/<td([^>]*)>([\s\S]*?)<\/td>/g, (cell, attributes: string, content: string) =>
      content.replace(/<[^>]+>/g, '').length > 48 ? `<td${attributes} class="prose">${content}</td>` : cell,
    );
    return `<div class="table-scroll" tabindex="0" role="region" aria-label="${label}">${marked}</div>`;
  });
}

/** Every code block in a box of its own, where copy-code.js puts its Copy button (outside the part that scrolls). */
function codeBlocks(html: string): string {
  return html.replace(/<pre>/g, '<div class="code-block"><pre>').replace(/<\/pre>/g, '</pre></div>');
}

export function renderMarkdown(source: string, resolveLink: LinkResolver): RenderedMarkdown {
  const resolved = new Map<string, string>();
  const marked = new Marked(
    { gfm: true },
    markedHighlight({
      emptyLangClass: 'hljs',
      langPrefix: 'hljs language-',
      highlight(code, language) {
        return hljs.highlight(code, { language: hljs.getLanguage(language) ? language : 'plaintext' }).value;
      },
    }),
    gfmHeadingId(),
    {
      walkTokens(token) {
        if (token.type !== 'link') return;
        const link = token as Tokens.Link;
        const target = resolved.get(link.href) ?? resolveLink(link.href);
        resolved.set(link.href, target);
        link.href = target;
      },
    },
  );
  const html = codeBlocks(scrollingTables(marked.parse(source, { async: false })));
  const headings = getHeadingList().map(({ id, level, raw }) => ({ id, level, text: raw }));
  const title = headings.find((heading) => heading.level === 1)?.text;
  if (!title) throw new Error('a page needs a level-1 heading for its title');
  const markdown = source.replace(/\]\(([^)\s]+)\)/g, (whole, href: string) => {
    const target = resolved.get(href);
    return target === undefined ? whole : `](${target})`;
  });
  return { title, html, headings, markdown };
}
