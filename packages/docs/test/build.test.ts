/**
 * What the build reads from the document and writes into dist/: the generated sections cover the
 * whole document, the reference pages carry the samples and load nothing from outside, and the
 * site's own checks refuse what would break it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listOpenQuestions, loadBundle } from '@swap-gateway/openapi';
import { describe, expect, it } from 'vitest';
import { publishedOperations } from '../src/document.js';
import { detailsByCodeMarkdown, errorsTableMarkdown, listErrorCodes, noExample } from '../src/guide-sections/errors.js';
import { changelogMarkdown } from '../src/guide-sections/changelog.js';
import { openQuestionsMarkdown } from '../src/guide-sections/open-questions.js';
import { defaultOutput, packageRoot, siteUrl, siteUrlFrom } from '../src/paths.js';
import { forIntegrators, integratorRewrites, integratorText, speaksOfProvenance } from '../src/integrator-text.js';
import { referenceDocument } from '../src/reference.js';
import { samplesOf } from '../src/samples.js';
import { consoleAnchor } from '../src/console/page.js';
import { markdownPages, navigation, relativize, siteHeader } from '../src/site.js';

const combined = loadBundle('gateway');

describe('generated sections', () => {
  it('lists every error code of V4 with its meaning and version, and only V4 codes', () => {
    const schemas = combined.components.schemas as Record<string, { enum?: string[]; anyOf?: Array<{ enum?: string[] }> }>;
    const v3 = schemas.GatewayErrorCodeV3?.enum ?? [];
    const codes = listErrorCodes(combined);
    expect(codes.map((entry) => entry.code)).toEqual([...v3, 'MISSING_REFUND_ADDRESS']);
    expect(codes.find((entry) => entry.code === 'MISSING_REFUND_ADDRESS')).toMatchObject({ introducedIn: 'V4', versions: ['V4'] });
    expect(codes.find((entry) => entry.code === 'INVALID_CURSOR')).toMatchObject({ introducedIn: 'V2', versions: ['V3', 'V4'] });
    const table = errorsTableMarkdown(combined);
    for (const entry of codes) expect(table).toContain(`\`${entry.code}\``);
  });

  it('reads statuses and detail shapes from the examples, marks none inferred, and says so of a code without one', () => {
    const codes = new Map(listErrorCodes(combined).map((entry) => [entry.code, entry]));
    const missingRefund = codes.get('MISSING_REFUND_ADDRESS')!;
    expect(missingRefund.returnedBy.map(({ operation, status }) => `${operation.operationId} ${status}`)).toContain('createOrderV4 400');
    expect(codes.get('INSUFFICIENT_AMOUNT')?.detailShapes).toEqual(['expectedActual']);
    const table = errorsTableMarkdown(combined);
    expect(table).toMatch(/`INSUFFICIENT_AMOUNT`.*\*\*400\*\* <span class="muted">get-quote<\/span>/);
    // No status carries a mark of its provenance (the open-questions page has that, for reviewers): no `*` but the bold of a status.
    expect(table.replace(/\*\*\d{3}\*\*/g, '')).not.toContain('*');
    // Every code of the document has an example today: one added without any gets "no example" in both its cells.
    const withNewCode = structuredClone(combined);
    const v3Codes = (withNewCode.components.schemas as Record<string, Record<string, any>>).GatewayErrorCodeV3!;
    v3Codes.enum.push('NEW_CODE');
    v3Codes['x-enumDescriptions'].NEW_CODE = 'A code no example returns.';
    v3Codes['x-introduced-in'].NEW_CODE = 'V3';
    expect(errorsTableMarkdown(withNewCode)).toContain(`\`NEW_CODE\` | A code no example returns. | V3 | ${noExample} | ${noExample} |`);
  });

  it('gives each code the document ties to a shape its row, from x-detail-shapes-by-code, and no other code', () => {
    const markdown = detailsByCodeMarkdown(combined);
    const rows = markdown.split('\n').slice(2);
    const tied = Object.keys(
      (combined.components.schemas as Record<string, { 'x-detail-shapes-by-code'?: Record<string, string> }>).GatewayErrorDetails![
        'x-detail-shapes-by-code'
      ]!,
    );
    expect(rows.map((row) => /^\| `([A-Z_]+)`/.exec(row)?.[1])).toEqual(tied);
    const row = (code: string) => rows.find((candidate) => candidate.startsWith(`| \`${code}\` |`))!;
    expect(row('INSUFFICIENT_AMOUNT')).toMatch(
      /`expected` `actual`.*`expected`: Expected value\. For INSUFFICIENT_AMOUNT, the route's smallest amount\./,
    );
    // The sentence for INSUFFICIENT_AMOUNT is said in its row only.
    expect(row('INSUFFICIENT_PAYMENT_AMOUNT')).toMatch(/`expected` `actual`/);
    expect(row('INSUFFICIENT_PAYMENT_AMOUNT')).not.toMatch(/smallest amount/);
    expect(row('INSUFFICIENT_SOLVER_BALANCE')).toMatch(/`limit` `token` `chain_id`/);
    expect(row('SIMULATION_FAILED')).toMatch(/`tenderly_url` \(optional\)/);
  });

  it('lists every open question of the document', () => {
    const markdown = openQuestionsMarkdown(combined);
    const questions = listOpenQuestions(combined);
    expect(questions.length).toBeGreaterThan(0);
    for (const question of questions) expect(markdown).toContain(`\`${question.pointer}\``);
  });
});

describe('the document as integrators read it', () => {
  it('has no note for API review and no sentence about where a fact comes from, in both versions', () => {
    for (const name of ['gateway', 'gateway-v4', 'gateway-v3'] as const) {
      const bundle = loadBundle(name);
      const readable = JSON.stringify(forIntegrators(bundle));
      expect(readable).not.toMatch(/"x-inferred"|"x-unspecified"/);
      const texts: string[] = [];
      const walk = (node: unknown, key = ''): void => {
        if (Array.isArray(node)) {
          for (const item of node) walk(item);
        } else if (node && typeof node === 'object') {
          for (const [child, value] of Object.entries(node)) if (child !== 'value') walk(value, child);
        } else if ((key === 'description' || key === 'summary') && typeof node === 'string') {
          texts.push(node);
        }
      };
      walk(JSON.parse(readable));
      expect(texts.length).toBeGreaterThan(100);
      expect(texts.filter(speaksOfProvenance), name).toEqual([]);
      // ...while the bundle itself keeps them, for the open-questions page.
      expect(JSON.stringify(bundle)).toMatch(/the description does not show/i);
    }
    // Every rewrite is of a sentence the document has: none is left over from an earlier document.
    const raw = JSON.stringify(loadBundle('gateway')).replace(/\\n|\s+/g, ' ');
    for (const sentence of Object.keys(integratorRewrites)) expect(raw.includes(sentence.replace(/"/g, '\\"')), sentence).toBe(true);
  });

  it('rewrites a listed sentence, and leaves out the clauses of one it does not know', () => {
    expect(integratorText('Listed newest first, as the sandbox server does; the description does not show the order.')).toBe(
      'Listed newest first, as the sandbox server does.',
    );
    expect(integratorText('Returns one page. The order is newest first; this document infers it. Poll it.')).toBe(
      'Returns one page. The order is newest first. Poll it.',
    );
    expect(integratorText('First paragraph, untouched.\n\n- a list\n- kept')).toBe('First paragraph, untouched.\n\n- a list\n- kept');
  });

  it('reaches the guides integrators read, the reference and the console without those sentences', () => {
    // Every page but the open questions, which reviewers read.
    for (const { href } of markdownPages.filter((page) => page.href !== 'guides/open-questions.html')) {
      const text = readFileSync(join(defaultOutput, href), 'utf8')
        .replace(/^[\s\S]*<main[^>]*>|<\/main>[\s\S]*$/g, '')
        .replace(/<[^>]+>/g, ' ');
      expect(text.split(/(?<=[.!?])\s+/).filter(speaksOfProvenance), href).toEqual([]);
    }
    for (const version of ['v4', 'v3'] as const) {
      const document = JSON.stringify(referenceDocument(loadBundle(`gateway-${version}`), version));
      expect(/x-inferred|x-unspecified|the description does not|bob-collective/i.test(document), version).toBe(false);
    }
  });
});

describe('the changelog as integrators read it', () => {
  /**
   * What speaks to the repository's contributors rather than to integrators: the repository's paths,
   * its tooling, its tests. A changeset's summary is printed as the changelog's entry, so it must be
   * written about the API and the client as an integrator uses them.
   */
  const contributorVoice =
    /(?:^|[\s`'"(])(?:packages|src|test|scripts|openapi\/paths|openapi\/components)\/|\.changeset\b|\b(?:pnpm|turbo|vitest|biome|spectral|changesets?|tests?|contract suite|house rules?|lint(?:s|ed|ing)?)\b/i;
  const contributorSentences = (text: string) =>
    text
      .split(/(?<=[.!?:])\s+|\n/)
      .map((sentence) => sentence.trim())
      .filter((sentence) => contributorVoice.test(sentence));

  it('has no entry that speaks to contributors', () => {
    const text = readFileSync(join(defaultOutput, 'guides', 'changelog.html'), 'utf8')
      .replace(/^[\s\S]*<main[^>]*>|<\/main>[\s\S]*$/g, '')
      .replace(/<[^>]+>/g, ' ');
    expect(text).toContain('Next release');
    expect(contributorSentences(text)).toEqual([]);
  });

  it('finds the entry that does, and only that one', () => {
    const entry = (summary: string) => ({ file: 'entry.md', bumps: { '@swap-gateway/openapi': 'minor' }, summary, date: '2026-01-02' });
    const markdown = changelogMarkdown({
      pending: [
        entry('get-orders takes a `status` filter.'),
        entry('The check moves to `packages/server/src/validate.ts`, which the contract suite runs.'),
      ],
      releases: [],
      unreleasedChanges: undefined,
    });
    expect(contributorSentences(markdown)).toEqual([
      'The check moves to `packages/server/src/validate.ts`, which the contract suite runs.',
    ]);
  });
});

describe('reference documents', () => {
  it('attach the samples of every language to every operation, drop internal servers and mark V3 as legacy', () => {
    for (const version of ['v4', 'v3'] as const) {
      const document = referenceDocument(loadBundle(`gateway-${version}`), version);
      for (const operation of publishedOperations(document)) {
        const samples = operation.definition['x-codeSamples'] as Array<{ label: string; source: string }>;
        expect(samples.map((sample) => sample.label)).toEqual(['curl', 'TypeScript', 'Python']);
        expect(samples.map((sample) => sample.source)).toEqual(samplesOf(operation).map((sample) => sample.source));
        // Every operation opens itself in the request console.
        expect(String(operation.definition.description)).toContain(
          `](${version}-console.html${consoleAnchor(loadBundle(`gateway-${version}`), operation.operationId)})`,
        );
      }
      const servers = document.servers as Array<Record<string, unknown>>;
      expect(servers.length).toBeGreaterThan(0);
      expect(servers.some((server) => server['x-internal'] === true)).toBe(false);
    }
    expect(String(referenceDocument(loadBundle('gateway-v3'), 'v3').info.description)).toMatch(
      /^> \*\*V3 is kept for existing integrations\.\*\*/,
    );
  });

  it('leaves the bundle it is given untouched', () => {
    const bundle = loadBundle('gateway-v4');
    const before = JSON.stringify(bundle);
    referenceDocument(bundle, 'v4');
    expect(JSON.stringify(bundle)).toBe(before);
  });
});

describe('the built folder', () => {
  const read = (relative: string) => readFileSync(join(defaultOutput, relative), 'utf8');

  it('has every page, and the guides load nothing from another host', () => {
    for (const { href } of markdownPages) {
      expect(existsSync(join(defaultOutput, href)), href).toBe(true);
      expect(read(href), href).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    }
  });

  it('self-contains the console pages: Swagger UI and the contract check from the site, no validator badge', () => {
    for (const href of ['reference/v4-console.html', 'reference/v3-console.html']) {
      const html = read(href);
      expect(html).toContain('<script src="../assets/swagger-ui/swagger-ui-bundle.js"></script>');
      expect(html).toContain('<script src="../assets/try-it.js"></script>');
      expect(/<(script|link|img)\b[^>]*\b(src|href)="(https?:)?\/\//.test(html), `${href} has a tag loading from another host`).toBe(false);
    }
    expect(read('assets/try-it.js')).toContain('validatorUrl:null');
  });

  it('writes llms.txt and llms-full.md with every guide and every operation of both versions, at absolute addresses', () => {
    const index = read('llms.txt');
    const full = read('llms-full.md');
    expect(index).toMatch(/^# Swap Gateway API\n\n> \S/);
    expect(index).toContain(`[llms-full.md](${siteUrl}llms-full.md)`);
    for (const { href } of markdownPages) expect(index, href).toContain(`](${siteUrl}${href}.md)`);
    // Every link of llms.txt is absolute, and every one names a file of the site.
    const links = [...index.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(20);
    for (const link of links) {
      expect(link.startsWith(siteUrl), link).toBe(true);
      expect(existsSync(join(defaultOutput, link.slice(siteUrl.length).split('#')[0]!)), link).toBe(true);
    }
    for (const version of ['v4', 'v3'] as const) {
      for (const operation of publishedOperations(loadBundle(`gateway-${version}`))) {
        expect(index, operation.operationId).toContain(`- [${operation.method} ${operation.path}](${siteUrl}`);
        expect(full, operation.operationId).toContain(`### ${operation.method} ${operation.path} (${operation.operationId})`);
        for (const sample of samplesOf(operation)) expect(full, sample.relativePath).toContain(sample.source.trim());
      }
    }
    for (const name of Object.keys(combined.components.schemas as object)) expect(full, name).toContain(`### ${name}\n`);
    // The guides' links as the site has them, absolute: none of the op:/err: forms the build rewrites, none from the root.
    expect(full).not.toMatch(/\]\((op|err):/);
    expect(full).not.toMatch(/\]\(\/(?!\/)/);
    // Plain Markdown: no tag of the site's HTML left outside the code.
    expect(full.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, '')).not.toMatch(/<(div|p|span|a)\b/);
  });

  it('writes a Markdown copy of every guide beside its page, announced by the page', () => {
    for (const { href } of markdownPages) {
      const copy = read(`${href}.md`);
      expect(copy, href).toMatch(/^#{1,2} \S/m);
      expect(copy.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, ''), href).not.toMatch(/<(div|p|span|a)\b|\]\(\/(?!\/)/);
      expect(copy, href).toContain(`The page: ${siteUrl}${href}`);
      expect(read(href), href).toContain(relativize(`<link rel="alternate" type="text/markdown" href="/${href}.md">`, href));
    }
    expect(read('guides/quickstart.html.md')).toContain(
      readFileSync(join(packageRoot, 'samples', 'quickstart', 'execute-quote.ts'), 'utf8').trim(),
    );
    // Inline code keeps what looks like a tag, and a table cell's line breaks read as semicolons.
    expect(read('guides/addresses.html.md')).toContain('`<address>:<bps>` pairs');
    expect(read('guides/errors.html.md')).toMatch(/\| `INVALID_REQUEST` \|.*\*\*400\*\* get-quote, [^|]*; \*\*401\*\* every operation \|/);
  });

  it('has a 404 page for a static host, linked from the root path of the site', () => {
    const html = read('404.html');
    const base = new URL(siteUrl).pathname;
    expect(html).toContain('<h1 id="page-not-found">Page not found</h1>');
    const links = [...html.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(20);
    for (const link of links) {
      expect(link.startsWith(base), link).toBe(true);
      expect(existsSync(join(defaultOutput, link.slice(base.length).split('#')[0]!)), link).toBe(true);
    }
  });

  it('leaves the notes for API review (x-inferred, x-unspecified) out of the reference and the console', () => {
    for (const href of ['reference/v4.html', 'reference/v3.html', 'reference/v4-console.html', 'reference/v3-console.html']) {
      const html = read(href);
      expect(/x-inferred|x-unspecified/.test(html), `${href} carries a review note`).toBe(false);
    }
    // ...which the bundles do carry, for the open-questions page.
    expect(JSON.stringify(loadBundle('gateway-v4'))).toContain('"x-unspecified"');
  });

  it('self-contains Redoc in the reference pages, with its CDN logo replaced by a local copy', () => {
    for (const href of ['reference/v4.html', 'reference/v3.html']) {
      const html = read(href);
      // Booleans, not the page itself, in the assertions: a reference page is 2.5 MB of script.
      expect(html.includes('<div id="redoc">'), `${href} has Redoc`).toBe(true);
      expect(html.includes('cdn.redoc.ly/redoc/logo-mini'), `${href} loads Redocly's logo from its CDN`).toBe(false);
      expect(/<(script|link|img)\b[^>]*\b(src|href)="(https?:)?\/\//.test(html), `${href} has a tag loading from another host`).toBe(false);
    }
  });

  it("links the reference pages' markup only to files of the site, to places on the page, or to Redoc's home", () => {
    for (const href of ['reference/v4.html', 'reference/v3.html']) {
      // The markup a reader sees before Redoc's script runs: its scripts set aside.
      const markup = read(href).replace(/<script\b[\s\S]*?<\/script>/g, '');
      const links = [...new Set([...markup.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((match) => match[1] ?? ''))];
      expect(links.length, href).toBeGreaterThan(15);
      for (const link of links) {
        if (link.startsWith('#') || link === 'https://redocly.com/redoc/') continue;
        // Relative, as every link of the site, which may be served under a path of its host.
        expect(link.startsWith('/'), `${href} links to ${link}, from the root of the host`).toBe(false);
        const file = new URL(link, `http://site/${href}`).pathname.slice(1);
        expect(existsSync(join(defaultOutput, file)), `${href} links to ${link}`).toBe(true);
      }
    }
  });

  it('tells a browser without scripts where every operation is, since Redoc draws the reference', () => {
    for (const version of ['v4', 'v3'] as const) {
      const note = /<noscript>([\s\S]*?)<\/noscript>/.exec(read(`reference/${version}.html`))?.[1] ?? '';
      expect(note, version).toContain('href="../llms-full.md"');
      expect(note, version).toContain(`href="../openapi/gateway-${version}.yaml"`);
    }
  });
});

describe('the navigation', () => {
  it('opens with the quickstart, in the sidebar and in the header', () => {
    expect(navigation[0]?.items[0]).toMatchObject({ label: 'Quickstart', href: 'guides/quickstart.html' });
    expect(/<nav class="top-nav"[^>]*><a href="\/guides\/quickstart\.html"/.test(siteHeader('index.html'))).toBe(true);
  });
});

describe('the address of the site', () => {
  it('is where pnpm docs:serve previews it unless DOCS_SITE_URL says, always ending with a slash', () => {
    expect(siteUrlFrom(undefined)).toBe('http://127.0.0.1:4000/');
    expect(siteUrlFrom('https://docs.example.com')).toBe('https://docs.example.com/');
    expect(siteUrlFrom('https://example.github.io/swap-gateway')).toBe('https://example.github.io/swap-gateway/');
    expect(() => siteUrlFrom('ftp://example.com/')).toThrow(/not an http/);
  });
});

describe('relative links', () => {
  it('rewrite root links for a page in a folder and at the root', () => {
    expect(relativize('<a href="/guides/errors.html">', 'guides/amounts.html')).toBe('<a href="../guides/errors.html">');
    expect(relativize('<img src="/assets/logo.svg">', 'index.html')).toBe('<img src="./assets/logo.svg">');
    expect(relativize('<a href="//elsewhere.example/">', 'index.html')).toBe('<a href="//elsewhere.example/">');
  });
});
