/**
 * Builds the docs site into dist/ from the bundles of @swap-gateway/openapi:
 *
 *   dist/index.html            landing page
 *   dist/guides/*.html         guides (Markdown in guides/, rendered here)
 *   dist/reference/v4.html     Redoc reference of V4, self-contained
 *   dist/reference/v3.html     Redoc reference of V3, kept for existing integrations
 *   dist/reference/v*-console.html  the request console of each version (Swagger UI)
 *   dist/openapi/              the bundles, for download
 *   dist/assets/               styles, search script and its prebuilt index
 *   dist/llms.txt, llms-full.md  for coding assistants: the site's map, and guides + reference in one file
 *   dist/.../*.br, *.gz        every text file compressed beside it, for a static host to send as it is
 *
 * Guides may hold two directives, replaced before rendering:
 * `<!-- generated:NAME[:ARG] -->` (a section read from the document) and
 * `<!-- sample:v4/getQuoteV4 -->` (that sample in every language it is written in, as tabs).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePath, jsonContent, loadBundle, type OpenApiDocument } from '@swap-gateway/openapi';
import { bundlerIn, compareVersions, formatVersionsMarkdown } from '@swap-gateway/spec-diff';
import { publishedOperations, referenceAnchor, type PublishedOperation } from './document.js';
import { detailShapesMarkdown, detailsByCodeMarkdown, errorsTableMarkdown, listErrorCodes, schemaMarker } from './guide-sections/errors.js';
import { changelogMarkdown, readChangelogSources } from './guide-sections/changelog.js';
import { openQuestionsMarkdown } from './guide-sections/open-questions.js';
import { sandboxControlsMarkdown, sandboxSettingsMarkdown } from './guide-sections/sandbox.js';
import { codeSamplesMarkdown, operationsTableMarkdown, sampleGroupMarkdown } from './guide-sections/operations.js';
import { schemaFieldsMarkdown } from './guide-sections/schemas.js';
import { forIntegrators, integratorNote, unlistedSentences } from './integrator-text.js';
import { fence } from './markdown-text.js';
import { guideMarkdownCopy, llmsFullMarkdown, llmsTxt, markdownCopyHref, type GuideText } from './llms.js';
import { renderMarkdown } from './markdown.js';
import { bundleConsoleScript, consolePage, consolePages, swaggerUiAssets, swaggerUiDirectory } from './console/page.js';
import { buildReference, referencePages } from './reference.js';
import { samplesAt } from './samples.js';
import { defaultOutput, packageRoot, siteUrl } from './paths.js';
import { consoleEntries, errorCodeEntries, guideEntries, operationEntries, searchIndexScript, type SearchEntry } from './search.js';
import { precompressSite } from './serve.js';
import { guidePage, logoSvg, markdownPages } from './site.js';

const guidesDirectory = join(packageRoot, 'guides');
const repositoryRoot = join(packageRoot, '..', '..');
const assetsDirectory = join(packageRoot, 'src', 'assets');
const require = createRequire(import.meta.url);

interface Context {
  combined: OpenApiDocument;
  /** The combined bundle as integrators read it (integrator-text.ts), for the sections of the guides that print descriptions. */
  readable: OpenApiDocument;
  operations: PublishedOperation[];
}

/** The generated sections a guide can ask for. */
const generators: Record<string, (context: Context, argument?: string) => string> = {
  'errors-table': ({ combined }) => errorsTableMarkdown(combined),
  'error-detail-shapes': ({ combined }) => detailShapesMarkdown(combined),
  'error-details-by-code': ({ combined }) => detailsByCodeMarkdown(combined),
  fields: ({ readable }, schema) => schemaFieldsMarkdown(readable, required(schema, 'fields')),
  // A schema's note for API review, as a guide asks for it: what an integrator does about it (the note is the open-questions page's).
  unspecified: ({ combined }, schema) => noteFor(combined, required(schema, 'unspecified'), 'x-unspecified'),
  inferred: ({ combined }, schema) => noteFor(combined, required(schema, 'inferred'), 'x-inferred'),
  'open-questions': ({ combined }) => openQuestionsMarkdown(combined),
  operations: ({ operations }, version) =>
    operationsTableMarkdown(operations.filter((operation) => operation.version === required(version, 'operations'))),
  'code-samples': ({ operations }, version) =>
    codeSamplesMarkdown(operations.filter((operation) => operation.version === required(version, 'code-samples'))),
  // The V3 → V4 report of @swap-gateway/spec-diff, its headings moved one level down to sit in the guide.
  'version-diff': ({ combined }) => formatVersionsMarkdown(compareVersions(combined, 'v3', 'v4')).replace(/^(#+) /gm, '#$1 '),
  changelog: ({ combined }) => changelogMarkdown(readChangelogSources(repositoryRoot, combined, bundlerIn(repositoryRoot))),
  'response-example': ({ operations }, argument) => responseExampleMarkdown(operations, required(argument, 'response-example')),
  // The sandbox of `pnpm server`: its controls checked against the server's README, its settings read from its configuration.
  'sandbox-controls': () => sandboxControlsMarkdown(readFileSync(join(repositoryRoot, 'packages', 'server', 'README.md'), 'utf8')),
  'sandbox-settings': () =>
    sandboxSettingsMarkdown(readFileSync(join(repositoryRoot, 'packages', 'server', 'config', 'sandbox.json'), 'utf8')),
};

/** The guides' sentence for a schema's note, once the document is known to carry that note. */
function noteFor(combined: OpenApiDocument, schema: string, marker: 'x-unspecified' | 'x-inferred'): string {
  schemaMarker(combined, schema, marker);
  return integratorNote(schema, marker);
}

/** `operationId/status/exampleName`: one named example of a response, as a JSON block. */
function responseExampleMarkdown(operations: PublishedOperation[], argument: string): string {
  const [operationId, status, name] = argument.split('/');
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  const example = operation && status && name ? jsonContent(operation.responses[status])?.examples[name] : undefined;
  if (!example) throw new Error(`generated:response-example:${argument}: the document has no such example`);
  return fence('json', JSON.stringify(example.value, null, 2));
}

function required(argument: string | undefined, directive: string): string {
  if (!argument) throw new Error(`<!-- generated:${directive} --> needs an argument (generated:${directive}:...)`);
  return argument;
}

function expandDirectives(source: string, context: Context, file: string): string {
  return source.replace(/<!--\s*(generated|sample):(\S+?)\s*-->/g, (_, kind: string, target: string) => {
    if (kind === 'sample') return sampleGroupMarkdown(samplesAt(target));
    const [name = '', argument] = target.split(':');
    const generate = generators[name];
    if (!generate) throw new Error(`${file}: unknown directive generated:${name}`);
    return generate(context, argument);
  });
}

interface AnchorLink {
  file: string;
  page: string;
  anchor: string;
}

/**
 * Checks and rewrites a guide's link: `op:ID`, `err:CODE`, a site page `/x.html#y`, or an anchor of
 * the page. Anchors into guides are recorded, to be checked once every guide is rendered.
 */
function linkResolver(context: Context, codes: Set<string>, knownPages: Set<string>, page: string, file: string, anchors: AnchorLink[]) {
  return (href: string): string => {
    if (href.startsWith('op:')) {
      const operation = context.operations.find((candidate) => candidate.operationId === href.slice(3));
      if (!operation) throw new Error(`${file}: link to unknown operation ${href}`);
      return `/${referencePages[operation.version].href}${referenceAnchor(operation)}`;
    }
    if (href.startsWith('err:')) {
      if (!codes.has(href.slice(4))) throw new Error(`${file}: link to unknown error code ${href}`);
      return `/guides/errors.html#${href.slice(4)}`;
    }
    if (href.startsWith('#')) {
      anchors.push({ file, page, anchor: href.slice(1) });
      return href;
    }
    if (href.startsWith('/')) {
      const [target = '', anchor] = href.slice(1).split('#');
      if (!knownPages.has(target)) throw new Error(`${file}: link to ${href}, which the site does not have`);
      if (anchor !== undefined && !target.startsWith('reference/')) anchors.push({ file, page: target, anchor });
      return href;
    }
    throw new Error(`${file}: link ${href} leaves the site; the docs link only to their own pages`);
  };
}

/** The page a static host (and `pnpm docs:serve`) answers for an address the site does not have. */
function notFoundPage(base: string): string {
  const html = `<h1 id="page-not-found">Page not found</h1>
<p class="lead">There is no page at this address. The search above finds guides, operations and error codes, or start from one of these:</p>
<ul>
<li><a href="/guides/quickstart.html">Quickstart</a>: the sandbox, the four calls and a whole swap</li>
<li><a href="/index.html">Overview</a> of the API and every guide</li>
<li><a href="/reference/v4.html">API reference V4</a> and the <a href="/reference/v4-console.html">request console</a></li>
<li><a href="/guides/errors.html">Errors</a>: every error code</li>
</ul>`;
  return guidePage({
    href: '404.html',
    title: 'Page not found',
    html,
    headings: [],
    description: 'There is no page at this address.',
    base,
  });
}

export async function buildSite(outputDirectory = defaultOutput): Promise<{ pages: string[]; operations: number; searchEntries: number }> {
  rmSync(outputDirectory, { recursive: true, force: true });
  const write = (relative: string, content: string | Buffer) => {
    const file = join(outputDirectory, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  const copy = (from: string, relative: string) => write(relative, readFileSync(from));

  const combined = loadBundle('gateway');
  const versions = { v4: loadBundle('gateway-v4'), v3: loadBundle('gateway-v3') };
  const operations = [...publishedOperations(versions.v4), ...publishedOperations(versions.v3)];
  const combinedIds = publishedOperations(combined)
    .map((operation) => operation.operationId)
    .sort();
  if (
    combinedIds.join() !==
    operations
      .map((operation) => operation.operationId)
      .sort()
      .join()
  ) {
    throw new Error('the per-version bundles and the combined bundle do not list the same operations');
  }
  const context: Context = { combined, readable: forIntegrators(combined), operations };
  const readableVersions = { v4: forIntegrators(versions.v4), v3: forIntegrators(versions.v3) };
  const codes = listErrorCodes(combined);

  const downloads = (['gateway', 'gateway-v4', 'gateway-v3'] as const).flatMap((name) =>
    (['json', 'yaml'] as const).map((format) => ({ name, format })),
  );
  const knownPages = new Set([
    ...markdownPages.map((page) => page.href),
    ...Object.values(referencePages).map((page) => page.href),
    ...Object.values(consolePages).map((page) => page.href),
    ...downloads.map(({ name, format }) => `openapi/${name}.${format}`),
  ]);

  const pages: string[] = [];
  const searchEntries: SearchEntry[] = [];
  const anchorLinks: AnchorLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const guideTexts: GuideText[] = [];
  const codeNames = new Set(codes.map((entry) => entry.code));
  for (const page of markdownPages) {
    const file = join(guidesDirectory, page.source);
    const markdown = expandDirectives(readFileSync(file, 'utf8'), context, page.source);
    const rendered = renderMarkdown(markdown, linkResolver(context, codeNames, knownPages, page.href, page.source, anchorLinks));
    anchorsOf.set(page.href, new Set([...rendered.html.matchAll(/\bid="([^"]+)"/g)].map((match) => match[1] ?? '')));
    const description = /<p>([\s\S]*?)<\/p>/.exec(rendered.html)?.[1]?.replace(/<[^>]+>/g, '') ?? rendered.title;
    const markdownCopy = markdownCopyHref(page.href);
    write(
      page.href,
      guidePage({ href: page.href, title: rendered.title, html: rendered.html, headings: rendered.headings, description, markdownCopy }),
    );
    searchEntries.push(...guideEntries({ href: page.href, title: rendered.title, html: rendered.html }));
    const guide = { href: page.href, title: rendered.title, description, markdown: rendered.markdown };
    guideTexts.push(guide);
    // The guide as Markdown, beside its page, for tools that read docs.
    write(markdownCopy, guideMarkdownCopy(guide, siteUrl));
    pages.push(page.href);
  }

  for (const { file, page, anchor } of anchorLinks) {
    if (!anchorsOf.get(page)?.has(anchor)) throw new Error(`${file}: link to ${page}#${anchor}, which has no such anchor`);
  }

  for (const version of ['v4', 'v3'] as const) {
    const output = join(outputDirectory, referencePages[version].href);
    mkdirSync(dirname(output), { recursive: true });
    await buildReference(versions[version], version, output);
    write(consolePages[version].href, consolePage(versions[version], version));
    pages.push(referencePages[version].href, consolePages[version].href);
  }
  for (const asset of swaggerUiAssets) copy(join(swaggerUiDirectory, asset), `assets/swagger-ui/${asset}`);
  await bundleConsoleScript(join(outputDirectory, 'assets', 'try-it.js'));

  for (const { name, format } of downloads) copy(bundlePath(name, format), `openapi/${name}.${format}`);
  for (const asset of [
    'header.css',
    'site.css',
    'console.css',
    'search.js',
    'menu.js',
    'copy-code.js',
    'samples.js',
    'console-links.js',
    'redoc-badge.svg',
    'redoc-badge-full.svg',
  ])
    copy(join(assetsDirectory, asset), `assets/${asset}`);
  copy(require.resolve('highlight.js/styles/github.css'), 'assets/highlight.css');
  write('assets/logo.svg', logoSvg);
  const readableOperations = [...publishedOperations(readableVersions.v4), ...publishedOperations(readableVersions.v3)];
  searchEntries.push(...operationEntries(readableOperations), ...consoleEntries(operations), ...errorCodeEntries(codes));
  write('assets/search-index.js', searchIndexScript(searchEntries));
  write(
    'llms.txt',
    llmsTxt({ guides: guideTexts, operations, description: String(combined.info.description ?? '').split(/\n\n/)[0] ?? '', site: siteUrl }),
  );
  write('llms-full.md', llmsFullMarkdown({ guides: guideTexts, versions: readableVersions, combined: context.readable, site: siteUrl }));
  // What a static host answers for an address the site does not have: links from the site's root path.
  write('404.html', notFoundPage(new URL(siteUrl).pathname));
  pages.push('404.html');
  await precompressSite(outputDirectory);

  for (const sentence of unlistedSentences)
    console.warn(
      `docs: a sentence for API review left out of the integrators' pages, with no rewrite in src/integrator-text.ts: ${sentence}`,
    );
  return { pages, operations: operations.length, searchEntries: searchEntries.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const output = process.argv[2] ?? defaultOutput;
  const result = await buildSite(output);
  console.log(
    `docs: ${result.pages.length} pages, ${result.operations} operations with samples, ${result.searchEntries} search entries in ${output} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}
