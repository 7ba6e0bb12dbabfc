/**
 * The configured chains, tokens and routes, indexed for lookups. Token addresses are compared the
 * way their chain compares them (tokenKey).
 */
import type { ChainConfig, ChainKind, GatewayConfig, RouteConfig, RouteKind, TokenConfig } from './config.js';

/**
 * A token's key: its chain, and its address compared case-insensitively where addresses are hex (EVM
 * chains, and the zero address of Bitcoin's native token), exactly elsewhere (Base58: Tron, Solana).
 */
export function tokenKey(chain: string, kind: ChainKind | undefined, address: string): string {
  return `${chain}:${kind === 'evm' || kind === 'bitcoin' ? address.toLowerCase() : address}`;
}

export interface Route extends RouteConfig {
  kind: RouteKind;
  src: TokenConfig;
  dst: TokenConfig;
}

export class Catalogue {
  private readonly chains: Map<string, ChainConfig>;
  private readonly tokens: Map<string, TokenConfig>;
  private readonly routes: Map<string, Route>;

  constructor(config: GatewayConfig) {
    this.chains = new Map(config.chains.map((chain) => [chain.id, chain]));
    this.tokens = new Map(config.tokens.map((token) => [this.tokenKey(token.chain, token.address), token]));
    this.routes = new Map();
    for (const route of config.routes) {
      const src = this.token(route.srcChain, route.srcToken)!;
      const dst = this.token(route.dstChain, route.dstToken)!;
      this.routes.set(this.routeKey(route.srcChain, route.srcToken, route.dstChain, route.dstToken), {
        ...route,
        kind: this.routeKind(route),
        src,
        dst,
      });
    }
  }

  chain(id: string): ChainConfig | undefined {
    return this.chains.get(id);
  }

  chainIds(): string[] {
    return [...this.chains.keys()];
  }

  isEnabled(chain: ChainConfig): boolean {
    return chain.enabled !== false;
  }

  token(chain: string, address: string): TokenConfig | undefined {
    return this.tokens.get(this.tokenKey(chain, address));
  }

  route(srcChain: string, srcToken: string, dstChain: string, dstToken: string): Route | undefined {
    return this.routes.get(this.routeKey(srcChain, srcToken, dstChain, dstToken));
  }

  /** Routes whose chains are both enabled: what get-routes lists and get-quote accepts. */
  enabledRoutes(): Route[] {
    return [...this.routes.values()].filter(
      (route) => this.isEnabled(this.chains.get(route.srcChain)!) && this.isEnabled(this.chains.get(route.dstChain)!),
    );
  }

  /** Native BTC: the configured token of the Bitcoin chain (the zero address, as the public gateway writes it). */
  bitcoinToken(): TokenConfig | undefined {
    return [...this.tokens.values()].find((token) => this.kindOf(token.chain) === 'bitcoin');
  }

  kindOf(chainId: string): ChainKind | undefined {
    return this.chains.get(chainId)?.kind;
  }

  private routeKind(route: RouteConfig): RouteKind {
    if (this.kindOf(route.srcChain) === 'bitcoin') return 'onramp';
    if (this.kindOf(route.dstChain) === 'bitcoin') return 'offramp';
    return 'tokenSwap';
  }

  private tokenKey(chain: string, address: string): string {
    return tokenKey(chain, this.kindOf(chain), address);
  }

  private routeKey(srcChain: string, srcToken: string, dstChain: string, dstToken: string): string {
    return `${this.tokenKey(srcChain, srcToken)}>${this.tokenKey(dstChain, dstToken)}`;
  }
}
