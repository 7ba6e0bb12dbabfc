/** Everything the handlers (src/handlers/) call, wired once by server.ts. */
import type { BitcoinAdapter } from './chains/bitcoin.js';
import type { Clock } from './clock.js';
import type { Catalogue } from './config/catalogue.js';
import type { GatewayConfig } from './config/config.js';
import type { Lifecycle } from './orders/lifecycle.js';
import type { OrderService } from './orders/service.js';
import type { OrderView } from './orders/view.js';
import type { QuoteService } from './quote/service.js';
import type { SandboxState } from './sandbox/state.js';
import type { Database } from './store/database.js';

export interface Services {
  config: GatewayConfig;
  catalogue: Catalogue;
  db: Database;
  clock: Clock;
  bitcoin: BitcoinAdapter;
  quotes: QuoteService;
  orders: OrderService;
  lifecycle: Lifecycle;
  view: OrderView;
  /** With the sandbox on: its shared state, and whether its price controls are served (its prices are the sandbox's own, not a price adapter's). */
  sandbox?: { state: SandboxState; priceControls: boolean };
}
