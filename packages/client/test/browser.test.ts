/**
 * The client in a real browser: a page bundled with the built package (esbuild, for the browser)
 * and served from its own origin on 127.0.0.1 runs the walletless onramp against the sandbox server
 * on another port, so every call crosses origins (CORS, preflights included). Debian's Chromium
 * driven by playwright-core; requests outside the loopback host are blocked and counted. Skips,
 * saying why, only where Chromium is absent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '@swap-gateway/server';
import { blockOutsideLocalhost, launchChromium, skipWithoutChromium } from '@swap-gateway/test-support/browser';
import { sandboxControls, sandboxServerOptions } from '@swap-gateway/test-support/sandbox';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitcoinjsSigner } from '../src/adapters/bitcoinjs.js';
import { createGatewayClient } from '../src/index.js';
import { bitcoinRoot, onrampQuoteParams } from './support/sandbox.js';

const skip = skipWithoutChromium('client browser test');

const clientEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
/** What the page does with the client: the walletless onramp, then following the order. */
const pageScript = `
import { createGatewayClient, executeQuote, stateOf } from ${JSON.stringify(clientEntry)};
window.walletless = async (baseUrl, params) => {
  const gateway = createGatewayClient({ baseUrl });
  const progress = [];
  const request = await executeQuote(gateway, await gateway.getQuote(params), { onProgress: (event) => progress.push(event.type + ' ' + event.orderId) });
  return { ...request, amount: String(request.amount), progress };
};
window.follow = async (baseUrl, orderId) => {
  const states = [];
  const order = await createGatewayClient({ baseUrl }).waitForOrder(orderId, { intervalMs: 50, timeoutMs: 30000, onUpdate: (o) => states.push(stateOf(o).state) });
  return { id: order.id, states };
};`;

interface PaymentShown {
  route: string;
  orderId: string;
  address: string;
  amount: string;
  opReturnData: string | null;
  psbtHex: string | null;
  progress: string[];
}

describe.skipIf(skip)('the client in Chromium', { timeout: 120_000 }, () => {
  let gateway: RunningServer;
  let site: Server;
  let siteUrl: string;
  let browser: Browser;
  let page: Page;
  const outsideRequests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    gateway = await startServer(sandboxServerOptions('drivenByTest'));
    const bundle = await build({
      stdin: { contents: pageScript, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
    });
    const script = bundle.outputFiles[0]!.text;
    site = createServer((request, response) => {
      if (request.url === '/page.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>client</title><script type="module" src="/page.js"></script>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    browser = await launchChromium();
    const context = await browser.newContext();
    await blockOutsideLocalhost(context, outsideRequests);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(siteUrl);
    await page.waitForFunction(() => 'walletless' in window);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await gateway?.close();
  });

  it('creates a walletless onramp from another origin, shows what to pay, and follows the order once paid', async () => {
    const wallet = bitcoinjsSigner({
      hdNode: bitcoinRoot,
      utxos: (address) => sandboxControls(gateway.url).bitcoinUtxos(address),
      feeRate: 12,
    });
    const params = onrampQuoteParams(wallet.address);
    expect(new URL(siteUrl).origin).not.toBe(new URL(gateway.url).origin);

    const shown = await page.evaluate(
      ([baseUrl, query]) => (window as unknown as { walletless: (...args: unknown[]) => Promise<PaymentShown> }).walletless(baseUrl, query),
      [gateway.url, params] as const,
    );
    expect(shown).toMatchObject({ route: 'onramp', amount: '1000000', psbtHex: null, progress: [`created ${shown.orderId}`] });
    expect(shown.address).toMatch(/^bc1q/);
    expect(shown.opReturnData).toMatch(/^[0-9a-f]{64}$/);

    // The user pays from their own wallet (here from Node, as a phone wallet would after the QR code).
    const node = createGatewayClient({ baseUrl: gateway.url });
    const hex = await wallet.signPayment({ address: shown.address, amount: BigInt(shown.amount), opReturnData: shown.opReturnData });
    await node.registerTx({ onramp: { order_id: shown.orderId, bitcoin_tx_hex: hex } });
    const followed = page.evaluate(
      ([baseUrl, id]) =>
        (window as unknown as { follow: (...args: unknown[]) => Promise<{ id: string; states: string[] }> }).follow(baseUrl, id),
      [gateway.url, shown.orderId] as const,
    );
    await sandboxControls(gateway.url).settle();
    const { id, states } = await followed;
    expect(id).toBe(shown.orderId);
    expect(states.at(-1)).toBe('success');
    expect(pageErrors).toEqual([]);
    expect(outsideRequests).toEqual([]);
  });
});
