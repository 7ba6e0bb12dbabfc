/**
 * The built site in a real browser: Debian's Chromium driven by playwright-core,
 * the site served from disk on 127.0.0.1, every request to anywhere else
 * blocked and counted. Skips, saying why, only where Chromium is absent.
 *
 * One browser for the file, one context per width (a desktop's, a phone's), and in each one page that
 * every check navigates: a new page costs a renderer of its own, about twice the CPU of loading the same
 * address in a page that is there (measured on this site: 23 s against 15 s for 16 loads). A check that
 * needs a context of its own (a guard of its own, an expected console error) says so. The checks that
 * read every page (its layout, its guide's layout, its Copy buttons) share one walk of the site per width.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadBundle } from '@swap-gateway/openapi';
import { blockOutsideLocalhost, launchChromium, skipWithoutChromium } from '@swap-gateway/test-support/browser';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedOperations, referenceAnchor } from '../src/document.js';
import { defaultOutput, packageRoot, screenshotsDirectory } from '../src/paths.js';
import { referencePages } from '../src/reference.js';
import { serveSite, type ServedSite } from '../src/serve.js';
import { consoleAnchor, consolePages } from '../src/console/page.js';
import { markdownPages } from '../src/site.js';

/** How long a page may take to scroll or render after an action: generous, for CI's 2 busy cores. */
const settle = { timeout: 15_000, interval: 100 };
const operations = [...publishedOperations(loadBundle('gateway-v4')), ...publishedOperations(loadBundle('gateway-v3'))];

/** Every HTML page of the built site (Swagger UI's and Redoc's assets aside), from the site root. */
function builtPages(directory = defaultOutput): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : builtPages(path);
    return entry.name.endsWith('.html') ? [relative(defaultOutput, path)] : [];
  });
}

/** A phone (an iPhone 12 to 15's CSS width, a touch screen) and a desktop. */
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const desktop = { viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 };

describe.skipIf(skipWithoutChromium('docs site browser test'))('the docs site in Chromium', { timeout: 120_000 }, () => {
  let site: ServedSite;
  let browser: Browser;
  let context: BrowserContext;
  let phoneContext: BrowserContext;
  /** The page of each width's context, navigated by the checks in turn. */
  let desktopView: Page;
  let phoneView: Page;
  const outsideRequests: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(defaultOutput, 'index.html'))) throw new Error(`no built site in ${defaultOutput}: run the package's build first`);
    mkdirSync(screenshotsDirectory, { recursive: true });
    site = await serveSite();
    browser = await launchChromium();
    [context, phoneContext] = await Promise.all([browser.newContext(desktop), browser.newContext(phone)]);
    for (const each of [context, phoneContext]) {
      await blockOutsideLocalhost(each, outsideRequests);
      each.on('page', (page) => watch(page));
    }
    [desktopView, phoneView] = await Promise.all([context.newPage(), phoneContext.newPage()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  function watch(page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  }

  /** Redoc's heading of an operation: an h2 whose text is the operation's summary. */
  function operationHeading(page: Page, summary: string): Locator {
    return page
      .locator('#redoc h2')
      .filter({ hasText: new RegExp(`^${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
      .first();
  }

  /** Whether an element is shown within the window (below the site header). */
  function inViewport(locator: Locator): Promise<boolean> {
    return locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.top < window.innerHeight;
    });
  }

  /** A width's page (the desktop's unless said), loaded afresh at `path`. */
  async function open(path: string, page = desktopView): Promise<Page> {
    const url = new URL(path, site.url);
    // Only a new fragment of the document shown would scroll it: leave it first, so that it loads again.
    if (url.hash && page.url().split('#')[0] === url.href.split('#')[0]) await page.goto('about:blank');
    await page.goto(url.href, { waitUntil: 'load' });
    return page;
  }

  it('shows the landing page with both versions and links into the reference', async () => {
    const page = await open('index.html');
    expect(await page.locator('main h1').textContent()).toBe('Swap Gateway API');
    for (const operation of operations) {
      const link = page.locator(`main a[href$="${referencePages[operation.version].href}${referenceAnchor(operation)}"]`);
      expect(await link.count(), `landing page links ${operation.operationId}`).toBe(1);
    }
    await page.screenshot({ path: join(screenshotsDirectory, 'landing.png') });
    // A link from the landing page opens the operation in the reference.
    await page.locator(`a[href$="${referenceAnchor(operations[1]!)}"]`).click();
    await page.waitForURL(/reference\/v4\.html#/);
    await expect.poll(() => inViewport(operationHeading(page, operations[1]!.summary)), settle).toBe(true);
  });

  it('lists every operation of both versions in its reference, and opens each', async () => {
    for (const version of ['v4', 'v3'] as const) {
      const page = await open(referencePages[version].href);
      const own = operations.filter((operation) => operation.version === version);
      for (const operation of own) {
        const link = page.locator(`a[href="${referenceAnchor(operation)}"]`).first();
        await link.waitFor({ state: 'visible' });
        await link.click();
        await page.waitForURL((url) => url.hash === referenceAnchor(operation));
        const heading = operationHeading(page, operation.summary);
        await expect.poll(() => inViewport(heading), { ...settle, message: `${operation.operationId} opens` }).toBe(true);
      }
      if (version === 'v3') await page.getByText('V3 is kept for existing integrations.').first().waitFor({ state: 'visible' });
      if (version === 'v4') {
        const getQuote = own.find((operation) => operation.operationId === 'getQuoteV4')!;
        await page
          .locator(`a[href="${referenceAnchor(getQuote)}"]`)
          .first()
          .click();
        await expect.poll(() => inViewport(operationHeading(page, getQuote.summary)), settle).toBe(true);
        await page.screenshot({ path: join(screenshotsDirectory, 'operation-getQuoteV4.png') });
      }
    }
  });

  it('shows the errors table with every code', async () => {
    const page = await open('guides/errors.html');
    const table = page.locator('main table').filter({ hasText: 'MISSING_REFUND_ADDRESS' });
    await table.waitFor({ state: 'visible' });
    const codes = loadBundle('gateway').components.schemas as Record<string, { enum?: string[]; anyOf?: Array<{ enum?: string[] }> }>;
    const expected = [...(codes.GatewayErrorCodeV3?.enum ?? []), ...(codes.GatewayErrorCodeV4?.anyOf?.[1]?.enum ?? [])];
    expect(expected.length).toBeGreaterThan(30);
    const rows = await table.locator('tbody tr td:first-child').allTextContents();
    expect(rows.map((row) => row.trim()).sort()).toEqual([...expected].sort());
    await table.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 72));
    await page.screenshot({ path: join(screenshotsDirectory, 'errors-table.png') });
  });

  it('searches pages, operations and error codes from the header', async () => {
    const page = await open('guides/amounts.html');
    const search = page.locator('#site-search');
    await search.fill('refund address missing');
    const results = page.locator('#search-results a');
    await results.first().waitFor({ state: 'visible' });
    expect(await page.locator('#search-results').textContent()).toContain('MISSING_REFUND_ADDRESS');
    await page.locator('#search-results a', { hasText: 'MISSING_REFUND_ADDRESS' }).first().click();
    await page.waitForURL(/guides\/errors\.html#MISSING_REFUND_ADDRESS$/);

    await page.locator('#site-search').fill('quote a swap');
    await page.locator('#search-results a', { hasText: 'GET /v4/get-quote' }).first().click();
    await page.waitForURL(/reference\/v4\.html#\/v4\/getquotev4$/);
    await expect.poll(() => inViewport(operationHeading(page, 'Quote a swap')), settle).toBe(true);

    // An operation comes before the open questions and the guides that name it.
    for (const [query, first] of [
      ['get-quote', 'GET /v4/get-quote: Quote a swap'],
      ['register-tx', 'PATCH /v4/register-tx'],
    ] as const) {
      await page.locator('#site-search').fill(query);
      await expect.poll(() => page.locator('#search-results a strong').first().textContent(), settle).toContain(first);
    }
    // The open questions are still found, asked for.
    await page.locator('#site-search').fill('open questions get-quote');
    await expect.poll(() => page.locator('#search-results a').first().textContent(), settle).toMatch(/GET \/v4\/get-quote.*Open question/);

    // Search works on the reference pages too (these queries are typed in the one the operation's result
    // opened, not loaded again: Redoc costs 2 to 3 s of CPU a load), and says when nothing matches.
    expect(page.url()).toMatch(/reference\/v4\.html#/);
    await page.locator('#site-search').fill('zzqx nothing like this');
    await expect.poll(() => page.locator('#search-results').textContent(), settle).toContain('Nothing matches');

    // The request console is found by its name.
    await page.locator('#site-search').fill('console');
    const consoleResult = page.locator('#search-results a', { hasText: 'Try V4 in the console' }).first();
    await consoleResult.waitFor({ state: 'visible' });
    expect(await page.locator('#search-results a').first().textContent()).toContain('console');
    await consoleResult.click();
    // The link is what is checked here (the console itself, in console.browser.test.ts): the next page
    // loads once the console's is committed, sparing Swagger UI's processing, about 3 s of CPU.
    await page.waitForURL(/reference\/v4-console\.html$/, { waitUntil: 'commit' });
  });

  it('switches every sample to the language chosen, and remembers it on the next page', async () => {
    const page = await open('guides/code-samples.html');
    const groups = page.locator('.sample-group');
    expect(await groups.count()).toBeGreaterThan(9);
    const shown = (language: string) => page.locator(`.sample-group .sample-label[data-language="${language}"]:visible`).count();
    await groups.first().locator('.sample-tab', { hasText: 'Python' }).click();
    expect(await shown('python')).toBe(await groups.count());
    expect(await shown('curl')).toBe(0);
    await page.goto(new URL('guides/pagination-and-polling.html', site.url).href);
    await expect.poll(() => shown('python'), settle).toBe(await page.locator('.sample-group').count());
    expect(await page.locator('.sample-group .sample-tab[aria-selected="true"]').first().textContent()).toBe('Python');
  });

  it('keeps the sample clicked in place when every sample above it changes language', async () => {
    for (const [options, view] of [
      [desktop, desktopView],
      [phone, phoneView],
    ] as const) {
      const page = await open('guides/code-samples.html', view);
      const group = page.locator('h3:has-text("Create an order from a quote (V4)") ~ .sample-group').first();
      const python = group.locator('.sample-tab', { hasText: 'Python' });
      await python.evaluate((tab) => window.scrollTo(0, tab.getBoundingClientRect().top + window.scrollY - 300));
      const before = (await python.boundingBox())!;
      // A click where the reader sees the tab (no scrolling into view first); get-quote's Python sample, above, is 25 lines longer.
      await page.mouse.click(before.x + 5, before.y + 5);
      await expect.poll(() => group.locator('.sample-label[data-language="python"]').isVisible(), settle).toBe(true);
      expect(Math.round((await python.boundingBox())!.y), `at ${options.viewport.width} px`).toBe(Math.round(before.y));
    }
  });

  it('shares the language chosen between the guides and the samples of the reference, both ways', async () => {
    const page = await open('guides/code-samples.html');
    await page.locator('.sample-group').first().locator('.sample-tab', { hasText: 'Python' }).click();
    // The samples panels Redoc has rendered, by the operation's path, with the language its menu button shows as selected.
    const panels = () =>
      page.locator('.panel-request-samples').evaluateAll((found) =>
        found.map((panel) => {
          const texts = Array.from(panel.querySelectorAll('button[aria-haspopup="menu"]'), (button) => button.textContent!.trim());
          return {
            path: texts.find((text) => text.includes('/v4/')),
            language: texts.find((text) => ['curl', 'TypeScript', 'Python'].includes(text)),
          };
        }),
      );
    const languageOf = async (path: string) => (await panels()).find((panel) => panel.path?.endsWith(path))?.language;
    const languagesShown = async () => new Set((await panels()).map((panel) => panel.language));
    await page.goto(new URL(`${referencePages.v4.href}#/v4/createorderv4`, site.url).href);
    await expect.poll(() => languageOf('/v4/create-order'), settle).toBe('Python');
    // A panel Redoc renders later, as the reader moves to another operation, follows too.
    await page.locator('a[href="#/v4/getorderv4"]').first().click();
    await expect.poll(() => languageOf('/v4/get-order/{id}'), settle).toBe('Python');
    expect(await languagesShown()).toEqual(new Set(['Python']));
    // The reader picks curl in the menu of the panel in view: saved for the guides. (Redoc's menu is fixed
    // to its button's place in the window; a panel scrolled to for the click would leave its menu out of
    // the window when Redoc, on a busy machine, scrolls back to get-order late.)
    await page
      .locator('.panel-request-samples', { has: page.locator('button[aria-haspopup="menu"]', { hasText: '/v4/get-order/' }) })
      .locator('button[aria-haspopup="menu"]', { hasText: /^Python$/ })
      .click();
    await page.locator('[role="menu"] [role="menuitem"]:visible', { hasText: /^curl$/ }).click();
    await expect.poll(languagesShown, settle).toEqual(new Set(['curl']));
    await page.goto(new URL('guides/code-samples.html', site.url).href);
    // Every group written in curl shows curl (a flow written only in TypeScript and Python shows its first).
    const selectedTabs = async () =>
      new Set(
        await page.locator('.sample-group:has(.sample-tab[data-language="curl"]) .sample-tab[aria-selected="true"]').allTextContents(),
      );
    await expect.poll(selectedTabs, settle).toEqual(new Set(['curl']));
  });

  describe('every built page, walked once at both widths', () => {
    /** What the walk saw of one page at one width, for the checks below to assert on. */
    interface Visit {
      href: string;
      device: 'phone' | 'desktop';
      layout: { width: number; page: number; body: number; hidden: string[]; tables: boolean[] };
      /** The search box's width. */
      searchWidth: number;
      /** Whether the header shows its links, and (on a desktop) the menu's button. */
      topNavVisible: boolean;
      menuVisible: boolean;
      /** On a phone: where the menu opened, and whether it showed the link of each guide. */
      menu?: { x: number; width: number; listed: Map<string, boolean> };
      /** On a guide (or the landing page), what the shared layout gave it. */
      guide?: { title: string | null; headers: number; currentInNavigation: number; html: string; linksOffSite: string[] };
      /** On a reference, loaded at its group's link on a desktop: the address of every link Redoc rendered. */
      redocLinks?: string[];
      /** On a guide: its code blocks, and how many of them have a Copy button. */
      codeBlocks?: { blocks: number; copyButtons: number };
    }

    const pages = builtPages();
    const guides = new Set(markdownPages.map((page) => page.href));
    const visits: Visit[] = [];
    const visitsOf = (device: Visit['device']) => visits.filter((visit) => visit.device === device);

    /**
     * Every built page loaded once per width, and everything the checks below assert read from that
     * load: a guide took about a second to load on a busy 2-core machine (13 in 12.3 s), a reference
     * 2 to 3 s of CPU, and the checks loaded each guide four times and each reference three times
     * between them.
     */
    beforeAll(async () => {
      const walk = async (device: Visit['device'], page: Page) => {
        for (const href of pages) {
          // A console opens with its first operation expanded, so that its tables are laid out too.
          const version = (Object.keys(consolePages) as Array<keyof typeof consolePages>).find((key) => consolePages[key].href === href);
          const bundle = version && loadBundle(`gateway-${version}`);
          const consoleOpened = bundle ? consoleAnchor(bundle, publishedOperations(bundle)[0]!.operationId) : '';
          // A reference is loaded at its group's link, as a new tab opens it, for the check of Redoc's links.
          const reference = (['v4', 'v3'] as const).find((key) => referencePages[key].href === href);
          await open(href + (reference ? `#/${reference}` : consoleOpened), page);
          if (bundle) await page.locator('.opblock.is-open .opblock-body').first().waitFor({ state: 'visible', timeout: 15_000 });
          const layout = await page.evaluate(() => ({
            width: window.innerWidth,
            page: document.documentElement.scrollWidth,
            body: document.body.scrollWidth,
            // A page that hides what overflows would fit without being usable: it must not.
            hidden: [document.documentElement, document.body]
              .map((element) => getComputedStyle(element).overflowX)
              .filter((value) => value !== 'visible'),
            // Every table of a guide scrolls in a box of its own that fits.
            tables: Array.from(document.querySelectorAll('main.content table'), (table) => {
              const box = table.closest('.table-scroll');
              return box
                ? box.getBoundingClientRect().right <= window.innerWidth + 0.5 && getComputedStyle(box).overflowX === 'auto'
                : false;
            }),
          }));
          const menu = page.locator('.site-header .site-menu summary');
          // The reads of a page are independent: asked at once, they wait on one round trip to the browser, not one each.
          const [search, topNavVisible, menuVisible] = await Promise.all([
            page.locator('#site-search').boundingBox(),
            page.locator('.site-header .top-nav').isVisible(),
            menu.isVisible(),
          ]);
          const visit: Visit = { href, device, layout, searchWidth: search!.width, topNavVisible, menuVisible };
          if (guides.has(href) && device === 'desktop') {
            const [title, headers, currentInNavigation, html, linksOffSite] = await Promise.all([
              page.locator('main h1').textContent(),
              page.locator('header.site-header').count(),
              page.locator(`nav.sidebar a[aria-current="page"]`).count(),
              page.content(),
              page.$$eval('main a[href]', (links) =>
                links.map((link) => (link as HTMLAnchorElement).href).filter((href) => !href.startsWith(location.origin)),
              ),
            ]);
            visit.guide = { title, headers, currentInNavigation, html, linksOffSite };
          }
          if (reference && device === 'desktop') {
            const first = operations.find((operation) => operation.version === reference)!;
            // The reference shows the group's operations...
            await operationHeading(page, first.summary).waitFor({ state: 'visible', timeout: 15_000 });
            await page.locator(`#redoc a[href="#/${reference}/${first.operationId.toLowerCase()}"]`).first().waitFor({ state: 'attached' });
            // ...and Redoc has rendered its links.
            visit.redocLinks = await page.$$eval('#redoc a[href]', (found) => found.map((link) => link.getAttribute('href')!));
          }
          if (guides.has(href) && device === 'phone') {
            const [blocks, copyButtons] = await Promise.all([
              page.locator('main .code-block').count(),
              page.locator('main .code-block > .copy-button').count(),
            ]);
            visit.codeBlocks = { blocks, copyButtons };
          }
          if (device === 'phone') {
            await menu.click();
            const panel = page.locator('.site-header .menu-panel');
            await panel.waitFor({ state: 'visible' });
            const [box, ...shown] = await Promise.all([
              panel.boundingBox(),
              ...markdownPages.map((guide) =>
                panel
                  .locator(`a[href$="${guide.href === 'index.html' ? 'index.html' : guide.href.split('/').pop()}"]`)
                  .first()
                  .isVisible(),
              ),
            ]);
            const listed = new Map(markdownPages.map((guide, index) => [guide.href, shown[index]!]));
            visit.menu = { x: box!.x, width: box!.width, listed };
            await page.keyboard.press('Escape');
            await panel.waitFor({ state: 'hidden' });
          }
          visits.push(visit);
        }
      };
      // The two widths at once, each in its own page: two renderers keep both cores busy.
      await Promise.all([walk('phone', phoneView), walk('desktop', desktopView)]);
    }, 300_000);

    it('renders every guide with the shared layout and no directive left', () => {
      const rendered = visitsOf('desktop').filter((visit) => visit.guide);
      expect(rendered.map((visit) => visit.href).sort()).toEqual([...guides].sort());
      for (const { href, guide } of rendered) {
        expect(guide!.title?.trim().length, `${href} has a title`).toBeGreaterThan(0);
        expect(guide!.headers, `${href} has the header`).toBe(1);
        expect(guide!.currentInNavigation, `${href} is marked in the navigation`).toBe(1);
        expect(guide!.html, `${href} has no unexpanded directive`).not.toMatch(/<!--\s*(generated|sample):/);
        expect(guide!.linksOffSite, `${href} links only to the site`).toEqual([]);
      }
    });

    it("gives Redoc's own links the page's hash, so that they open in a new tab too", () => {
      for (const version of ['v4', 'v3'] as const) {
        const links = visitsOf('desktop').find((visit) => visit.href === referencePages[version].href)!.redocLinks!;
        // Every link Redoc renders is a hash of the page: the sidebar's group of the version and the title are among them.
        expect(links).toEqual(expect.arrayContaining([`#/${version}`, '#/']));
        expect(
          links.filter((href) => href.startsWith('/') && !href.startsWith('//')),
          `${version}: links from the root of the host`,
        ).toEqual([]);
      }
    });

    it('copies a code block as printed with its Copy button', async () => {
      await phoneContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
      const page = await open('guides/quickstart.html', phoneView);
      const group = page.locator('.sample-group').first();
      await group.locator('.sample-tab', { hasText: 'Python' }).click();
      const block = group.locator('.code-block:visible');
      const button = block.getByRole('button', { name: 'Copy the code' });
      // The button sits in the block's corner, within the phone's screen.
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await button.click();
      await expect.poll(() => button.textContent(), settle).toBe('Copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(readFileSync(join(packageRoot, 'samples', 'quickstart', 'four-calls.py'), 'utf8').trimEnd());
      // Every code block of every guide has one.
      const walked = visitsOf('phone').filter((visit) => visit.codeBlocks);
      expect(walked.map((visit) => visit.href).sort()).toEqual([...guides].sort());
      for (const { href, codeBlocks } of walked) expect(codeBlocks!.copyButtons, href).toBe(codeBlocks!.blocks);
    });

    it('lays out every built page within the width of a phone and of a desktop, with the navigation reachable', () => {
      for (const href of [...markdownPages.map((page) => page.href), referencePages.v4.href, consolePages.v4.href])
        expect(pages, 'the walk finds the pages the site links').toContain(href);
      for (const device of ['phone', 'desktop'] as const)
        expect(
          visitsOf(device).map((visit) => visit.href),
          `every page walked on a ${device}`,
        ).toEqual(pages);
      for (const { href, device, layout, searchWidth, topNavVisible, menuVisible, menu } of visits) {
        const where = `${href} on a ${device}`;
        expect(layout.page, `${where}: the page is laid out wider than the window`).toBeLessThanOrEqual(layout.width);
        expect(layout.body, `${where}: the body is wider than the window`).toBeLessThanOrEqual(layout.width);
        expect(layout.hidden, `${where}: overflow hidden on the page`).toEqual([]);
        expect(layout.tables.every(Boolean), `${where}: a table outside a scrolling box that fits`).toBe(true);
        if (device === 'phone') {
          expect(searchWidth, `${where}: the search box is usable`).toBeGreaterThan(200);
          expect(topNavVisible, `${where}: the header's links give way to the menu`).toBe(false);
          expect(menu!.x >= 0 && menu!.x + menu!.width <= layout.width + 0.5, `${where}: the menu fits`).toBe(true);
          for (const guide of markdownPages) expect(menu!.listed.get(guide.href), `${where}: the menu lists ${guide.href}`).toBe(true);
        } else {
          expect(menuVisible, `${where}: no menu on a desktop`).toBe(false);
          expect(topNavVisible, `${where}: the header's links`).toBe(true);
          expect(searchWidth).toBeGreaterThan(200);
        }
      }
    });
  });
  it('is usable on a phone: the menu opens a guide, search answers within the screen, a wide table scrolls in its box', async () => {
    const page = await open('index.html', phoneView);
    await page.screenshot({ path: join(screenshotsDirectory, 'phone-landing.png') });
    await page.locator('.site-header .site-menu summary').click();
    await page.screenshot({ path: join(screenshotsDirectory, 'phone-menu.png') });
    await page.locator('.site-header .menu-panel a', { hasText: 'Amounts' }).click();
    await page.waitForURL(/guides\/amounts\.html$/);

    await page.locator('#site-search').fill('refund address missing');
    const results = page.locator('#search-results');
    await results.locator('a').first().waitFor({ state: 'visible' });
    const box = (await results.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(screenshotsDirectory, 'phone-search.png') });
    await results.locator('a', { hasText: 'MISSING_REFUND_ADDRESS' }).first().click();
    await page.waitForURL(/guides\/errors\.html#MISSING_REFUND_ADDRESS$/);
    // The errors table is wider than the phone: it scrolls sideways in its box, and the page does not.
    const scroller = page.locator('.table-scroll[aria-label^="Table: Code, Meaning"]');
    const scrolled = await scroller.evaluate((element) => {
      const before = element.scrollLeft;
      element.scrollLeft = 200;
      return { wider: element.scrollWidth > element.clientWidth, moved: element.scrollLeft - before, page: window.scrollX };
    });
    expect(scrolled).toEqual({ wider: true, moved: 200, page: 0 });
    await page.screenshot({ path: join(screenshotsDirectory, 'phone-errors.png') });
  });

  it('answers an address the site lacks with its 404 page, styled and searchable, at any depth', async () => {
    // A context of its own: Chromium reports the 404 of the page itself as a console error, which is the point here.
    const reader = await browser.newContext(desktop);
    await blockOutsideLocalhost(reader, outsideRequests);
    const page = await reader.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    for (const path of ['guides/no-such-guide.html', 'no/such/deep/page']) {
      errors.splice(0);
      const response = await page.goto(new URL(path, site.url).href);
      expect(response?.status(), path).toBe(404);
      expect(await page.locator('main h1').textContent()).toBe('Page not found');
      // Its stylesheets and scripts load from the site's root wherever it is served.
      expect(await page.locator('header.site-header').evaluate((header) => getComputedStyle(header).backgroundColor)).toBe(
        'rgb(15, 23, 42)',
      );
      await page.locator('#site-search').fill('quickstart');
      await page.locator('#search-results a').first().waitFor({ state: 'visible' });
      await page.locator('main a', { hasText: 'Quickstart' }).click();
      await page.waitForURL(/guides\/quickstart\.html$/);
      expect(errors, path).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
    }
    await reader.close();
  });

  it('has a network guard that does see a request to another host', async () => {
    // The guard of the last test, proven on a page of its own: an image from another host is blocked and recorded.
    const probe = await browser.newContext();
    const blocked: string[] = [];
    await blockOutsideLocalhost(probe, blocked);
    const page = await probe.newPage();
    await page.goto(site.url);
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const image = new Image();
          image.onerror = image.onload = resolve;
          image.src = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
        }),
    );
    await probe.close();
    expect(blocked).toEqual(['https://cdn.redoc.ly/redoc/logo-mini.svg']);
  });

  it('made no request outside localhost and logged no console error', () => {
    expect(outsideRequests, 'requests outside localhost').toEqual([]);
    expect(consoleErrors, 'console errors').toEqual([]);
  });
});
