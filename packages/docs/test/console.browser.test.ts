/**
 * The request console in Debian's Chromium, against a sandbox server started here: a reference page
 * links every operation to the console; get-quote and create-order sent from the console reach the
 * sandbox and come back 200 and 201 with their headers, marked as matching the document; a bad request
 * shows the documented 400 body; the mock answers the console too. Every request outside localhost is
 * blocked and must not happen.
 *
 * One browser, one context and one page that the checks navigate (a new page is a renderer of its own,
 * about twice the CPU of a load in a page that is there); the sandbox, the site and the browser start
 * together, once for the file. The mock (Prism, a process of its own) starts in the one test that sends
 * to it, alone: started beside Chromium's launch on a busy machine it once missed its 30 s start timeout.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startMock } from '@swap-gateway/mock';
import { loadBundle } from '@swap-gateway/openapi';
import { startServer, type RunningServer } from '@swap-gateway/server';
import { blockOutsideLocalhost, launchChromium, skipWithoutChromium } from '@swap-gateway/test-support/browser';
import { sandboxServerOptions } from '@swap-gateway/test-support/sandbox';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consoleAnchor, consolePages } from '../src/console/page.js';
import { publishedOperations, referenceAnchor } from '../src/document.js';
import { defaultOutput, screenshotsDirectory } from '../src/paths.js';
import { referencePages } from '../src/reference.js';
import { serveSite, type ServedSite } from '../src/serve.js';
import { onrampQuoteParameters } from './wallet.js';

const bundles = { v4: loadBundle('gateway-v4'), v3: loadBundle('gateway-v3') };

describe.skipIf(skipWithoutChromium('docs console browser test'))(
  'the request console in Chromium, against the sandbox',
  { timeout: 120_000 },
  () => {
    let server: RunningServer;
    let site: ServedSite;
    let browser: Browser;
    let context: BrowserContext;
    /** The page the checks navigate in turn. */
    let view: Page;
    const outsideRequests: string[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      if (!existsSync(join(defaultOutput, consolePages.v4.href)))
        throw new Error(`no built console in ${defaultOutput}: run the package's build first`);
      mkdirSync(screenshotsDirectory, { recursive: true });
      [server, site, browser] = await Promise.all([startServer(sandboxServerOptions('drivenByTest')), serveSite(), launchChromium()]);
      context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await blockOutsideLocalhost(context, outsideRequests);
      view = await context.newPage();
      view.on('pageerror', (error) => pageErrors.push(error.message));
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all([site?.close(), server?.close()]);
    });

    /** Loads `path` of the site afresh in `page`: only a new fragment of the document shown would scroll it, so leave it first. */
    async function load(path: string, page = view): Promise<Page> {
      const url = new URL(path, site.url);
      if (url.hash && page.url().split('#')[0] === url.href.split('#')[0]) await page.goto('about:blank');
      await page.goto(url.href);
      return page;
    }

    async function openConsole(operationId: string, gateway = server.url): Promise<{ page: Page; operation: Locator }> {
      const page = await load(`${consolePages.v4.href}${consoleAnchor(bundles.v4, operationId)}`);
      // The sandbox of this test listens on a free port: "Any base URL" with its address.
      await page.locator('.servers select').selectOption('{baseUrl}');
      await page.locator('input[data-variable="baseUrl"]').fill(gateway);
      const operation = page.locator(`[id$="-${operationId}"].opblock`);
      await operation.waitFor({ state: 'visible' });
      if (!(await operation.locator('.execute').isVisible())) await operation.locator('.opblock-summary').first().click();
      return { page, operation };
    }

    async function execute(operation: Locator): Promise<{ status: string; verdict: string; body: string; headers: string }> {
      await operation.locator('.execute').click();
      const verdict = operation.locator('.contract-verdict');
      await verdict.waitFor({ state: 'visible', timeout: 15_000 });
      const live = operation.locator('.live-responses-table');
      return {
        status: (await live.locator('tbody .response-col_status').first().textContent())?.trim() ?? '',
        verdict: (await verdict.textContent()) ?? '',
        body: (await live.locator('.response-col_description .highlight-code pre').first().textContent()) ?? '',
        headers:
          (await live
            .locator('.response-col_description h5', { hasText: 'Response headers' })
            .locator('xpath=following-sibling::pre[1]')
            .textContent()) ?? '',
      };
    }

    it('opens an operation of the reference in the console, which has every operation of both versions', async () => {
      const getQuote = publishedOperations(bundles.v4).find((operation) => operation.operationId === 'getQuoteV4')!;
      const reference = await load(`${referencePages.v4.href}${referenceAnchor(getQuote)}`);
      await reference
        .locator(`a[href="v4-console.html${consoleAnchor(bundles.v4, 'getQuoteV4')}"]`)
        .first()
        .click();
      await reference.waitForURL(/v4-console\.html#\/V4\/getQuoteV4$/);
      await reference.locator('[id$="-getQuoteV4"].opblock .execute').waitFor({ state: 'visible' });
      // The V4 console is the page the link opened; the V3 console is loaded.
      for (const version of ['v4', 'v3'] as const) {
        const consolePage = version === 'v4' ? reference : await load(consolePages[version].href);
        for (const operation of publishedOperations(bundles[version]))
          await consolePage.locator(`[id$="-${operation.operationId}"].opblock`).waitFor({ state: 'attached' });
      }
    });

    it('sends get-quote, then create-order with "Use the last quote", to the sandbox: 200 then 201, both matching the document', async () => {
      const quote = await openConsole('getQuoteV4');
      for (const [name, value] of Object.entries(onrampQuoteParameters))
        await quote.operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
      const quoted = await execute(quote.operation);
      expect(quoted.status).toBe('200');
      expect(quoted.verdict).toMatch(/^Matches the document: 200/);
      expect(quoted.headers.toLowerCase()).toContain('content-type');
      const quoteBody = JSON.parse(quoted.body) as { onramp?: unknown };
      expect(quoteBody.onramp).toBeDefined();

      // The quote is kept: create-order, opened afresh, puts it in its body with one click, unchanged.
      const order = await openConsole('createOrderV4');
      const body = order.operation.locator('textarea.body-param__text');
      await order.operation.getByRole('button', { name: 'Use the last quote' }).click();
      await expect.poll(async () => JSON.parse(await body.inputValue()), { timeout: 15_000 }).toEqual(quoteBody);
      expect(await order.operation.locator('.last-quote-note').textContent()).toMatch(/^The quote received at .+, unchanged\.$/);
      const created = await execute(order.operation);
      expect(created.status).toBe('201');
      expect(created.verdict).toMatch(/^Matches the document: 201/);
      expect(JSON.parse(created.body)).toMatchObject({ onramp: { order_id: expect.any(String), address: expect.any(String) } });
      await order.operation.screenshot({ path: join(screenshotsDirectory, 'console-create-order-201.png') });
    });

    it('clears the previous answer and its verdict when it refuses to send a request (a required parameter missing)', async () => {
      const quote = await openConsole('getQuoteV4');
      for (const [name, value] of Object.entries(onrampQuoteParameters))
        await quote.operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
      expect((await execute(quote.operation)).verdict).toMatch(/^Matches the document: 200/);
      await quote.operation.locator('tr[data-param-name="srcChain"] input').fill('');
      await quote.operation.locator('.execute').click();
      await quote.operation.locator('tr[data-param-name="srcChain"] input.invalid').waitFor({ state: 'visible' });
      await expect.poll(() => quote.operation.locator('.contract-verdict, .live-responses-table').count(), { timeout: 15_000 }).toBe(0);
    });

    it('opens an operation from a link below the sticky header, at a desktop and a phone width, with no review notes', async () => {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await view.setViewportSize(viewport);
        const page = await load(`${consolePages.v4.href}${consoleAnchor(bundles.v4, 'createOrderV4')}`);
        const summary = page.locator('[id$="-createOrderV4"].opblock .opblock-summary').first();
        await summary.waitFor({ state: 'visible' });
        // Swagger UI scrolls once the operation is shown: its title ends clear of the header, within the window.
        await expect
          .poll(
            () =>
              summary.evaluate((element) => {
                const header = document.querySelector('.site-header')!.getBoundingClientRect();
                const box = element.getBoundingClientRect();
                return window.scrollY > 0 && box.top >= header.bottom && box.bottom <= window.innerHeight;
              }),
            { timeout: 15_000, message: `create-order's title below the header at ${viewport.width} px` },
          )
          .toBe(true);
        const text = (await page.locator('#console').textContent()) ?? '';
        expect(text).not.toMatch(/x-inferred|x-unspecified/);
      }
      await view.setViewportSize({ width: 1440, height: 900 });
    });

    it('shows the documented 400 body for a bad request', async () => {
      const order = await openConsole('createOrderV4');
      await order.operation.locator('textarea.body-param__text').fill('{ "onramp": { "inputAmount": "not a quote" } }');
      const refused = await execute(order.operation);
      expect(refused.status).toBe('400');
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'INVALID_REQUEST', error: expect.any(String) });
      expect(refused.verdict).toMatch(/^Matches the document: 400/);
    });

    it("sends to the mock as well: get-routes answers the document's example", async () => {
      const mock = await startMock();
      try {
        const routes = await openConsole('getRoutesV4', mock.url);
        const answered = await execute(routes.operation);
        expect(answered.status).toBe('200');
        expect(answered.verdict).toMatch(/^Matches the document: 200/);
      } finally {
        await mock.stop();
      }
    });

    it('keeps the gateway chosen across console pages and reloads, and sends to it', async () => {
      // The shared page, with no other test's choice in its storage: the site's storage is emptied first,
      // from its landing page (a context of its own cost a cold start of the console, about 4 s of CPU).
      const page = await load('index.html');
      await page.evaluate(() => localStorage.clear());
      // Read at once, not waited for: the base URL's field is there only while "Any base URL" is chosen.
      const chosen = () =>
        page.evaluate(() => ({
          server: document.querySelector<HTMLSelectElement>('.servers select')?.value,
          baseUrl: document.querySelector<HTMLInputElement>('input[data-variable="baseUrl"]')?.value,
        }));
      await page.goto(new URL(consolePages.v3.href, site.url).href);
      await page.locator('.servers select').selectOption('{baseUrl}');
      await page.locator('input[data-variable="baseUrl"]').fill(server.url);

      await page.goto(new URL(`${consolePages.v4.href}${consoleAnchor(bundles.v4, 'getRoutesV4')}`, site.url).href);
      await expect.poll(chosen, { timeout: 15_000 }).toEqual({ server: '{baseUrl}', baseUrl: server.url });
      await page.reload();
      await expect.poll(chosen, { timeout: 15_000 }).toEqual({ server: '{baseUrl}', baseUrl: server.url });
      // The request goes to the gateway restored, with nothing typed on this page.
      const operation = page.locator('[id$="-getRoutesV4"].opblock');
      await operation.waitFor({ state: 'visible' });
      if (!(await operation.locator('.execute').isVisible())) await operation.locator('.opblock-summary').first().click();
      const answered = await execute(operation);
      expect(answered.status).toBe('200');
      expect(answered.verdict).toMatch(/^Matches the document: 200/);

      // Another choice replaces it: the mock, on the next page.
      await page.locator('.servers select').selectOption('http://127.0.0.1:4010');
      await page.goto(new URL(consolePages.v3.href, site.url).href);
      await expect.poll(async () => (await chosen()).server, { timeout: 15_000 }).toBe('http://127.0.0.1:4010');
    });

    // After every test, so that each one (also run alone) fails on a request outside localhost or a page error.
    afterEach(() => {
      expect(outsideRequests, 'requests outside localhost').toEqual([]);
      expect(pageErrors, 'page errors').toEqual([]);
    });
  },
);
