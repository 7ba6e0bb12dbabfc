/**
 * The API reference of one version: Redoc, rendered by `redocly build-docs
 * --inlineBundle` into one self-contained HTML page under the site header.
 * The bundle is given to Redoc with the code samples attached to each
 * operation (`x-codeSamples`), without the servers the document marks
 * `x-internal`, as integrators read it (integrator-text.ts: without the notes for API review, its
 * sentences about where a fact comes from rewritten); V3 is titled as kept for existing integrations. Each operation
 * links to itself in the request console (console/page.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenApiDocument } from '@swap-gateway/openapi';
import { publishedOperations, type ApiVersion } from './document.js';
import { forIntegrators } from './integrator-text.js';
import { sampleLanguages, samplesOf } from './samples.js';
import { consoleAnchor, consolePages } from './console/page.js';
import { referenceTemplate } from './site.js';

const run = promisify(execFile);
const redoclyCli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/** Height of the site header, so that Redoc's sidebar and scrolling sit below it. */
export const headerHeight = 56;

/**
 * Redoc shows a "docs by Redocly" badge whose logo it loads from Redocly's
 * CDN. The site loads nothing from outside, so the build points it at a copy
 * in the site's own assets; the build fails if Redoc stops carrying these
 * addresses (the browser test would then show what it loads instead).
 */
const remoteLogos = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': 'assets/redoc-badge-full.svg',
  'https://cdn.redoc.ly/redoc/logo-mini.svg': 'assets/redoc-badge.svg',
};

/**
 * Redoc renders its menu's first items (the overview, the document's title) with links of its own
 * router (`/`, `/v4`), which it turns into `#/` once its script runs. On this site those paths are
 * no page, so a reader whose browser has not run the script yet would leave the reference: the
 * build writes the `#/` the script would.
 */
const redocRouterLinks = (version: ApiVersion) => [' href="/" data-discover="true"', ` href="/${version}" data-discover="true"`];

export const referencePages: Record<ApiVersion, { href: string; title: string; document: string }> = {
  v4: { href: 'reference/v4.html', title: 'API reference V4', document: 'openapi/gateway-v4.yaml' },
  v3: { href: 'reference/v3.html', title: 'API reference V3 (kept for existing integrations)', document: 'openapi/gateway-v3.yaml' },
};

/** The version's bundle as Redoc receives it. */
export function referenceDocument(bundle: OpenApiDocument, version: ApiVersion): OpenApiDocument {
  // As integrators read it: the notes and sentences for API review are the open-questions page's.
  const document = forIntegrators(bundle);
  document.servers = (document.servers as Array<Record<string, unknown>> | undefined)?.filter((server) => server['x-internal'] !== true);
  for (const operation of publishedOperations(document)) {
    operation.definition.description = `[Try it in the console ▸](${consolePages[version].href.replace('reference/', '')}${consoleAnchor(bundle, operation.operationId)})\n\n${operation.description ?? ''}`;
    operation.definition['x-codeSamples'] = samplesOf(operation).map((sample) => ({
      lang: sample.language.label,
      label: sample.language.label,
      source: sample.source,
    }));
  }
  if (version === 'v3') {
    document.info.title = 'Swap Gateway API V3 (legacy)';
    document.info.description =
      `> **V3 is kept for existing integrations.** New integrations use [V4](v4.html); ` +
      `[the migration guide](../guides/versioning.html) lists every difference.\n\n${String(document.info.description ?? '')}`;
  } else {
    document.info.title = 'Swap Gateway API V4';
  }
  return document;
}

export async function buildReference(bundle: OpenApiDocument, version: ApiVersion, outputFile: string): Promise<void> {
  const page = referencePages[version];
  const work = mkdtempSync(join(tmpdir(), `swap-gateway-docs-${version}-`));
  try {
    const documentFile = join(work, `gateway-${version}.json`);
    const templateFile = join(work, 'template.hbs');
    writeFileSync(documentFile, JSON.stringify(referenceDocument(bundle, version)));
    writeFileSync(templateFile, referenceTemplate(page));
    const redocOptions = {
      scrollYOffset: headerHeight,
      jsonSamplesExpandLevel: 3,
      sortRequiredPropsFirst: true,
      hideDownloadButtons: true,
      // Only the languages the samples are written in, so Redoc shows ours and generates none.
      codeSamples: { languages: sampleLanguages.map((language) => ({ lang: language.label, label: language.label })) },
    };
    await run(
      process.execPath,
      [
        redoclyCli,
        'build-docs',
        documentFile,
        '--inlineBundle',
        '--output',
        outputFile,
        '--template',
        templateFile,
        '--title',
        page.title,
        '--openapi',
        JSON.stringify(redocOptions),
      ],
      // Telemetry off: the page Redoc writes must not report anywhere. The empty work folder as the
      // working directory, so that no redocly.yaml of wherever the build is started from applies.
      { cwd: work, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 * 1024 * 1024 },
    );
    let html = readFileSync(outputFile, 'utf8');
    for (const [remote, local] of Object.entries(remoteLogos)) {
      if (!html.includes(remote)) throw new Error(`Redoc no longer carries ${remote}; check what its badge loads now`);
      html = html.split(remote).join(`../${local}`);
    }
    for (const routerLink of redocRouterLinks(version)) {
      if (!html.includes(routerLink)) throw new Error(`Redoc's menu no longer carries ${routerLink}; check where its links lead now`);
      html = html.split(routerLink).join(' href="#/" data-discover="true"');
    }
    writeFileSync(outputFile, html);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
