/**
 * What `executeQuote` asks of the user's wallets: one small interface per source chain. The
 * adapters (`@swap-gateway/client/bitcoinjs`, `/viem`, `/solana-web3`) implement them over the
 * libraries integrators use; any wallet can implement them directly.
 */

/** What an onramp pays: the order's deposit address, the amount and the OP_RETURN data. */
export interface BitcoinPayment {
  /** The order's deposit address. */
  address: string;
  /** Satoshis to pay to `address`. */
  amount: bigint;
  /** Hex data of the OP_RETURN output the payment must carry; null when the order asks for none. */
  opReturnData: string | null;
}

/**
 * Pays an onramp. The gateway broadcasts the payment itself (register-tx), so a Bitcoin signer
 * signs and finalizes but never broadcasts. It implements either method or both: `signPsbt` is used
 * when the order carries a PSBT (the quote named a `sender`), `signPayment` otherwise.
 */
export interface BitcoinSigner {
  /** Signs every input of the PSBT (hex) and finalizes it; resolves to the raw transaction hex. */
  signPsbt?(psbtHex: string): Promise<string>;
  /** Builds a payment from the wallet's own outputs, signs and finalizes it; resolves to the raw transaction hex. */
  signPayment?(payment: BitcoinPayment): Promise<string>;
}

/** The source transaction of an EVM offramp or token swap, decoded: `value` in wei. */
export interface EvmTransaction {
  to: `0x${string}`;
  data: `0x${string}`;
  value: bigint;
  /** The chain name of the order (`ethereum`, `base`, ...): the sender must be on it. */
  chain: string;
}

/** Signs and broadcasts an EVM transaction; resolves to its transaction hash. */
export interface EvmSender {
  sendTransaction(transaction: EvmTransaction): Promise<string>;
}

/** The source transaction of a Tron offramp or token swap: hex calldata without 0x, `value` and `feeLimit` in sun. */
export interface TronTransaction {
  to: string;
  data: string;
  value: bigint;
  feeLimit: bigint;
}

/** Signs and broadcasts a Tron transaction; resolves to its transaction id. */
export interface TronSender {
  sendTransaction(transaction: TronTransaction): Promise<string>;
}

/**
 * Signs and broadcasts a Solana transaction given as the bytes of the unsigned versioned
 * transaction (never the base64 string); resolves to its signature (Base58).
 */
export interface SolanaSigner {
  signAndSendTransaction(transaction: Uint8Array): Promise<string>;
}

/** The signers of the chains a user pays from; `executeQuote` uses the one of the order's source chain. */
export interface Signers {
  bitcoin?: BitcoinSigner | undefined;
  evm?: EvmSender | undefined;
  tron?: TronSender | undefined;
  solana?: SolanaSigner | undefined;
}
