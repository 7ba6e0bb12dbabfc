/**
 * The site's pages, its navigation and the one layout they share. Every link
 * in the layout is written from the site root (`/guides/errors.html`) and made
 * relative to the page at the end, so the folder works from any base path.
 */
import type { Heading } from './markdown.js';
import { sampleLanguages } from './samples.js';

export interface NavItem {
  label: string;
  /** From the site root, without a leading slash. */
  href: string;
  note?: string;
}

export interface NavSection {
  title: string;
  items: NavItem[];
}

/** The guide pages: `guides/<slug>.md` is rendered to `guides/<slug>.html`; `index` is the landing page. */
export const navigation: NavSection[] = [
  {
    title: 'Get started',
    items: [
      { label: 'Quickstart', href: 'guides/quickstart.html' },
      { label: 'Overview', href: 'index.html' },
      { label: 'The sandbox', href: 'guides/sandbox.html' },
      { label: 'Client flow by route', href: 'guides/client-flow.html' },
      { label: 'Code samples', href: 'guides/code-samples.html' },
    ],
  },
  {
    title: 'Integrate',
    items: [
      { label: 'Authentication and rate limits', href: 'guides/authentication.html' },
      { label: 'Addresses and tokens', href: 'guides/addresses.html' },
      { label: 'Amounts', href: 'guides/amounts.html' },
      { label: 'Pagination and polling', href: 'guides/pagination-and-polling.html' },
    ],
  },
  {
    title: 'Reference',
    items: [
      { label: 'API reference V4', href: 'reference/v4.html' },
      { label: 'API reference V3', href: 'reference/v3.html', note: 'legacy' },
      { label: 'Request console', href: 'reference/v4-console.html' },
      { label: 'Errors', href: 'guides/errors.html' },
    ],
  },
  {
    title: 'Versions and review',
    items: [
      { label: 'Versioning and migration', href: 'guides/versioning.html' },
      { label: 'Changelog', href: 'guides/changelog.html' },
      { label: 'Open questions', href: 'guides/open-questions.html' },
    ],
  },
];

/** The Markdown pages of the site: every navigation entry that is not a reference page. */
export const markdownPages = navigation
  .flatMap((section) => section.items)
  .filter((item) => !item.href.startsWith('reference/'))
  .map((item) => ({
    href: item.href,
    source: item.href === 'index.html' ? 'index.md' : item.href.replace(/^guides\//, '').replace(/\.html$/, '.md'),
  }));

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const logo = `<svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#f7931a"/><path d="M9 12h11.5l-3-3M23 20H11.5l3 3" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** The links of the header, in this order; below the desktop width they move into the menu. */
const headerLinks: NavItem[] = [
  { label: 'Quickstart', href: 'guides/quickstart.html' },
  { label: 'Guides', href: 'guides/client-flow.html' },
  { label: 'V4 reference', href: 'reference/v4.html' },
  { label: 'V3 reference', href: 'reference/v3.html', note: 'legacy' },
  { label: 'Console', href: 'reference/v4-console.html' },
  { label: 'Errors', href: 'guides/errors.html' },
];

const linkHtml = (item: NavItem, current: boolean) =>
  `<a href="/${item.href}"${current ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}${item.note ? ` <span class="pill">${item.note}</span>` : ''}</a>`;

/** The section of the header a page belongs to: its own link, Console for both consoles, Guides for the other guides. */
function currentHeaderLink(currentHref: string): NavItem | undefined {
  const own = headerLinks.find((link) => link.href === currentHref);
  if (own) return own;
  if (currentHref.endsWith('-console.html')) return headerLinks.find((link) => link.label === 'Console');
  return currentHref.startsWith('guides/') ? headerLinks.find((link) => link.label === 'Guides') : undefined;
}

/**
 * The header every page has: brand, main links, the search box and the menu. The menu is a
 * `<details>` disclosure (it opens and closes without any script; menu.js only closes it on Escape,
 * on a click elsewhere and after a link inside the page): below the desktop width it replaces the main
 * links and the guides' sidebar, and lists the whole navigation.
 */
export function siteHeader(currentHref: string): string {
  const current = currentHeaderLink(currentHref);
  // Every main link is a page of the navigation too: the menu lists the navigation.
  const menuSections = navigation
    .map(
      (section) =>
        `<p class="menu-title">${escapeHtml(section.title)}</p><ul>${section.items
          .map((item) => `<li>${linkHtml(item, item.href === currentHref)}</li>`)
          .join('')}</ul>`,
    )
    .join('');
  return `<header class="site-header">
  <a class="brand" href="/index.html" aria-label="Swap Gateway API docs, home">${logo}<span>Swap Gateway <em>API docs</em></span></a>
  <nav class="top-nav" aria-label="Main">${headerLinks.map((link) => linkHtml(link, link.href === current?.href)).join('')}</nav>
  <div class="search" role="search">
    <input id="site-search" type="search" placeholder="Search guides, API, error codes" aria-label="Search the docs" autocomplete="off">
    <ul id="search-results" class="search-results" hidden></ul>
  </div>
  <details class="site-menu">
    <summary aria-label="Menu"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg></summary>
    <nav class="menu-panel" aria-label="Site">${menuSections}</nav>
  </details>
</header>`;
}

/** Scripts and styles every page loads, all from the site's own folder. */
export const headAssets = `<link rel="stylesheet" href="/assets/header.css">
<script src="/assets/search-index.js" defer></script>
<script src="/assets/search.js" defer></script>
<script src="/assets/menu.js" defer></script>`;

/** The language switch of the samples, given each language's label (as the tabs and Redoc's menus show it) by the build. */
const samplesScript = `<script src="/assets/samples.js" data-labels="${escapeHtml(
  JSON.stringify(Object.fromEntries(sampleLanguages.map((language) => [language.key, language.label]))),
)}" defer></script>`;

function sidebar(currentHref: string): string {
  return `<nav class="sidebar" aria-label="Guides">${navigation
    .map(
      (section) =>
        `<p class="sidebar-title">${escapeHtml(section.title)}</p><ul>${section.items
          .map((item) => `<li>${linkHtml(item, item.href === currentHref)}</li>`)
          .join('')}</ul>`,
    )
    .join('')}</nav>`;
}

function tableOfContents(headings: Heading[]): string {
  const sections = headings.filter((heading) => heading.level === 2);
  if (sections.length < 3) return '';
  return `<aside class="toc" aria-label="On this page"><p class="sidebar-title">On this page</p><ul>${sections
    .map((heading) => `<li><a href="#${heading.id}">${escapeHtml(heading.text)}</a></li>`)
    .join('')}</ul></aside>`;
}

/** Rewrites the root-based links of a page (`href="/x"`) into links relative to the page. */
export function relativize(html: string, pageHref: string): string {
  const prefix = '../'.repeat(pageHref.split('/').length - 1);
  return html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${prefix || './'}`);
}

/** Pages whose tables need the full width: no "on this page" column beside them. */
const widePages = new Set(['guides/errors.html', 'guides/open-questions.html', 'guides/code-samples.html']);

/**
 * A guide's page. `markdownCopy` (from the site root) is announced as the page's Markdown version;
 * `base` writes the links from that root path instead of relative to the page, for a page a static
 * host serves at any address (the 404 page).
 */
export function guidePage(options: {
  href: string;
  title: string;
  html: string;
  headings: Heading[];
  description: string;
  markdownCopy?: string;
  base?: string;
}): string {
  const wide = widePages.has(options.href);
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Swap Gateway API</title>
<meta name="description" content="${escapeHtml(options.description)}">
<link rel="icon" href="/assets/logo.svg" type="image/svg+xml">
${
  options.markdownCopy
    ? `<link rel="alternate" type="text/markdown" href="/${options.markdownCopy}">
`
    : ''
}<link rel="stylesheet" href="/assets/site.css">
<link rel="stylesheet" href="/assets/highlight.css">
${headAssets}
${samplesScript}
<script src="/assets/copy-code.js" defer></script>
</head>
<body class="guide">
${siteHeader(options.href)}
<div class="page${wide ? ' wide' : ''}">
${sidebar(options.href)}
<main class="content" id="content">
${options.html}
</main>
${wide ? '' : tableOfContents(options.headings)}
</div>
</body>
</html>
`;
  return options.base === undefined ? relativize(page, options.href) : page.replace(/\b(href|src)="\/(?!\/)/g, `$1="${options.base}`);
}

/** The Handlebars template `redocly build-docs` fills with Redoc: the site header above the reference. */
export function referenceTemplate(options: { href: string; title: string; document: string }): string {
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Swap Gateway API</title>
<link rel="icon" href="/assets/logo.svg" type="image/svg+xml">
${headAssets}
<script src="/assets/console-links.js"></script>
${samplesScript}
<style>body { margin: 0; }</style>
{{{redocHead}}}
</head>
<body class="reference">
${siteHeader(options.href)}
<noscript><p class="reference-without-script">This reference is drawn by a script. Without one, every operation
is in <a href="/llms-full.md">llms-full.md</a>, and the whole document in <a href="/${options.document}">its OpenAPI file</a>.</p></noscript>
{{{redocHTML}}}
</body>
</html>
`;
  return relativize(page, options.href);
}

export const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#f7931a"/><path d="M9 12h11.5l-3-3M23 20H11.5l3 3" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>\n`;
