/**
 * The configuration's checks find tokens as the catalogue does: a token, route or liquidity entry
 * that passes them is served, and one that would not be found fails at load, in a line of its own.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { Catalogue } from '../src/config/catalogue.js';

const sandbox = loadConfig({ env: {} });
const tronUsdt = sandbox.tokens.find((token) => token.chain === 'tron')!;
const bobWbtc = sandbox.tokens.find((token) => token.chain === 'bob' && token.symbol === 'WBTC')!;
const btcNative = sandbox.tokens.find((token) => token.chain === 'bitcoin')!;

describe('token addresses in the configuration', () => {
  it('takes a hex address (EVM, the native BTC token) in any case, as the catalogue finds it', () => {
    for (const [chain, address] of [
      ['bob', bobWbtc.address.toLowerCase()],
      ['bob', bobWbtc.address.toUpperCase().replace('0X', '0x')],
      ['bitcoin', btcNative.address.toUpperCase()],
    ] as const) {
      const config = loadConfig({ env: {}, overrides: { liquidity: [{ chain, token: address, amount: '1000' }] } });
      const configured = chain === 'bob' ? bobWbtc : btcNative;
      expect(new Catalogue(config).token(chain, address)?.address, address).toBe(configured.address);
    }
  });

  it('refuses a Base58 address in another case: it names another token', () => {
    const token = tronUsdt.address.toLowerCase();
    expect(() => loadConfig({ env: {}, overrides: { liquidity: [{ chain: 'tron', token, amount: '1000' }] } })).toThrow(
      `liquidity for unknown token tron:${token}`,
    );
    const routes = sandbox.routes.map((route) => (route.srcChain === 'tron' ? { ...route, srcToken: token } : route));
    expect(() => loadConfig({ env: {}, overrides: { routes } })).toThrow(`route tron:${token} -> bitcoin:`);
  });
});
