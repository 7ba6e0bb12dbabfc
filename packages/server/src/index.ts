export { startServer, createGateway, type StartServerOptions, type RunningServer } from './server.js';
export type { LogOptions } from './log.js';
export { loadConfig, sandboxConfigFile, type GatewayConfig, type ConfigOverrides } from './config/config.js';
export type { BitcoinAdapter, Utxo } from './chains/bitcoin.js';
export type { SettlementAdapter, SettlementOrder } from './chains/settlement.js';
export type { PriceSource } from './quote/prices.js';
