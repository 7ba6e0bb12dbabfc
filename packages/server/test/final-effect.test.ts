/**
 * An order ends one way: the sandbox's forced refund or failure and the lifecycle's delivery claim
 * one final effect per order, so forcing one while another is under way is refused (409) instead
 * of both happening. The chain adapter here holds its calls until the test lets them go, so that
 * the second request arrives while the first effect is in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedChains } from '../src/chains/settlement.js';
import type { ChainKind } from '../src/config/config.js';
import { loadConfig, type RunningServer } from '../src/index.js';
import type { SettlementOrder, TransferRequest } from '../src/chains/settlement.js';
import { client, offrampParams, testServer, tokenSwapParams } from './helpers.js';

/** The simulated chains, recording every call that moves funds and holding each until released. */
class HeldChains extends SimulatedChains {
  readonly calls: string[] = [];
  private held: Array<() => void> = [];
  private async hold(effect: string, order: SettlementOrder): Promise<void> {
    this.calls.push(`${effect}:${order.id}`);
    await new Promise<void>((resolve) => this.held.push(resolve));
  }
  /** Resolves once a call of this effect for the order is held. */
  async called(effect: string, orderId: string): Promise<void> {
    while (!this.calls.includes(`${effect}:${orderId}`)) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
  override async sendPayout(request: TransferRequest): Promise<string> {
    await this.hold('payout', request.order);
    return super.sendPayout(request);
  }
  override async deliver(request: TransferRequest, chain: ChainKind): Promise<string> {
    await this.hold('deliver', request.order);
    return super.deliver(request, chain);
  }
  override async refund(request: TransferRequest, chain: ChainKind): Promise<string> {
    await this.hold('refund', request.order);
    return super.refund(request, chain);
  }
}

const chains = new HeldChains(loadConfig({ env: {} }).lifecycle);
let server: RunningServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await testServer({ adapters: { settlement: chains } });
  api = client(server.url);
});
afterAll(() => {
  chains.release();
  return server.close();
});

/** An order whose source transaction was seen: the next pass past the confirmation delay delivers it. */
async function paidOrder(params: Record<string, string>): Promise<string> {
  const quote = await api.quote(params);
  const created = await api.post('/v4/create-order', quote.body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = (Object.values(created.body)[0] as { order_id: string }).order_id;
  expect((await api.post(`/sandbox/orders/${id}/source-sent`, {})).status).toBe(200);
  return id;
}

const force = (id: string, outcome: string) => api.post(`/sandbox/orders/${id}/outcome`, { outcome });
const status = async (id: string) => Object.keys((await api.get(`/v4/get-order/${id}`)).body.status)[0];
const calls = (id: string) => chains.calls.filter((call) => call.endsWith(`:${id}`)).map((call) => call.split(':')[0]);

describe('one final effect per order', () => {
  it('refuses a refund or a failure forced while the delivery is under way, and settles the delivery', async () => {
    const id = await paidOrder(tokenSwapParams());
    const pass = api.post('/sandbox/advance', { seconds: 31 });
    await chains.called('deliver', id);
    for (const outcome of ['refunded', 'failed']) {
      const answer = await force(id, outcome);
      expect(answer, outcome).toMatchObject({ status: 409, body: { code: 'INVALID_REQUEST' } });
    }
    chains.release();
    expect((await pass).status).toBe(200);
    expect(await status(id)).toBe('success');
    expect(calls(id)).toEqual(['deliver']);
  });

  it('delivers nothing for an order whose forced refund is under way, and refunds it', async () => {
    const id = await paidOrder(tokenSwapParams());
    const refund = force(id, 'refunded');
    await chains.called('refund', id);
    expect((await api.post('/sandbox/advance', { seconds: 31 })).status).toBe(200);
    expect((await force(id, 'failed')).status).toBe(409);
    chains.release();
    expect((await refund).status).toBe(200);
    expect((await api.post('/sandbox/advance', { seconds: 31 })).status).toBe(200);
    expect(await status(id)).toBe('refunded');
    expect(calls(id)).toEqual(['refund']);
  });

  it('delivers nothing after a forced failure, and refuses a refund of an offramp whose payout was sent', async () => {
    const failed = await paidOrder(tokenSwapParams());
    expect((await force(failed, 'failed')).status).toBe(200);
    const paidOut = await paidOrder(offrampParams());
    const pass = api.post('/sandbox/advance', { seconds: 31 });
    await chains.called('payout', paidOut);
    chains.release();
    expect((await pass).status).toBe(200);
    expect((await force(paidOut, 'refunded')).status).toBe(409);
    expect((await force(paidOut, 'failed')).status).toBe(409);
    expect(await status(failed)).toBe('failed');
    expect(await status(paidOut)).toBe('inProgress');
    expect([calls(failed), calls(paidOut)]).toEqual([[], ['payout']]);
  });
});
