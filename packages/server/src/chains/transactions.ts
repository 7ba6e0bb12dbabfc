/**
 * The source-chain transaction an offramp or token-swap order asks the user to sign:
 * - EVM: calldata for the gateway contract (`txTo`), ABI-encoded by viem;
 * - Tron: the same ABI call (Tron's TVM is EVM-compatible) with 20-byte account hex, plus `feeLimit`;
 * - Solana: an unsigned v0 versioned transaction built with @solana/web3.js, base64 of its bincode.
 */
import { createHash } from 'node:crypto';
import { PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { GatewayTxData } from '@swap-gateway/types';
import { encodeFunctionData, getAddress, pad, parseAbi, stringToHex, type Hex } from 'viem';
import type { ChainConfig } from '../config/config.js';
import { bitcoinLib, type BitcoinNetwork } from './bitcoin-lib.js';
import { tronAddressBytes } from './addresses.js';

export const gatewayAbi = parseAbi([
  'function createOrder(bytes32 orderId, address token, uint256 amount, uint256 minSats, bytes recipientScript, address owner)',
  'function swap(bytes32 orderId, address tokenIn, uint256 amountIn, uint256 minAmountOut, string dstChain, bytes recipient, address affiliate, uint16 affiliateBps)',
]);

const zeroAddress = '0x0000000000000000000000000000000000000000';

export interface SourceTransactionInput {
  orderId: string;
  route: 'offramp' | 'tokenSwap';
  chain: ChainConfig;
  txTo: string;
  token: string;
  amount: bigint;
  /** The least output the user accepts: the quoted output less the slippage. */
  minAmountOut: bigint;
  dstChain: string;
  recipient: string;
  /** Who may reclaim the source funds (the refund address, or the sender). */
  owner: string;
  /** The signer of a Solana transaction. */
  payer: string;
  affiliate?: { address: string; bps: number } | null;
  bitcoinNetwork: BitcoinNetwork;
}

export function buildSourceTransaction(input: SourceTransactionInput): GatewayTxData {
  switch (input.chain.kind) {
    case 'evm':
      return {
        type: 'evm',
        to: input.txTo,
        data: calldata(input, (address) => getAddress(address)),
        value: nativeValue(input),
        chain: input.chain.id,
      };
    case 'tron':
      return {
        type: 'tron',
        to: input.txTo,
        data: calldata(input, tronToEvm).slice(2),
        value: nativeValue(input),
        chain: input.chain.id,
        feeLimit: input.chain.feeLimitSun ?? '100000000',
      };
    case 'solana':
      return { type: 'solana', chainId: input.chain.chainId ?? 101, transaction: solanaTransaction(input) };
    case 'bitcoin':
      throw new Error('a Bitcoin source is paid, not signed: onramps have no source transaction');
  }
}

function calldata(input: SourceTransactionInput, account: (address: string) => Hex): Hex {
  const orderId = orderIdBytes32(input.orderId);
  if (input.route === 'offramp') {
    const recipientScript = bytesToHex(bitcoinLib.address.toOutputScript(input.recipient, input.bitcoinNetwork));
    return encodeFunctionData({
      abi: gatewayAbi,
      functionName: 'createOrder',
      args: [orderId, account(input.token), input.amount, input.minAmountOut, recipientScript, account(input.owner)],
    });
  }
  return encodeFunctionData({
    abi: gatewayAbi,
    functionName: 'swap',
    args: [
      orderId,
      account(input.token),
      input.amount,
      input.minAmountOut,
      input.dstChain,
      stringToHex(input.recipient),
      input.affiliate ? account(input.affiliate.address) : zeroAddress,
      input.affiliate?.bps ?? 0,
    ],
  });
}

/** A native-coin source (the zero address) sends its amount as the transaction value. */
const nativeValue = (input: SourceTransactionInput) => (input.token === zeroAddress ? input.amount.toString() : '0');

/** A Tron account as the 20-byte address the TVM sees. */
function tronToEvm(address: string): Hex {
  const bytes = tronAddressBytes(address);
  if (!bytes) throw new Error(`not a Tron address: ${address}`);
  return bytesToHex(bytes);
}

const orderIdBytes32 = (orderId: string): Hex => pad(`0x${orderId.replace(/-/g, '')}`, { size: 32 });

/**
 * One instruction to the swap program: accounts [payer (signer), source mint], data = 8-byte
 * instruction discriminator, 16-byte order id, amount and minimum output as u64 little-endian.
 * The blockhash is derived from the order id: the simulated chain has no recent blocks, and the
 * wallet replaces it before signing on a real network.
 */
function solanaTransaction(input: SourceTransactionInput): string {
  const payer = new PublicKey(input.payer);
  const data = Buffer.alloc(8 + 16 + 8 + 8);
  createHash('sha256').update('global:swap').digest().copy(data, 0, 0, 8);
  Buffer.from(input.orderId.replace(/-/g, ''), 'hex').copy(data, 8);
  data.writeBigUInt64LE(input.amount, 24);
  data.writeBigUInt64LE(input.minAmountOut, 32);
  const instruction = new TransactionInstruction({
    programId: new PublicKey(input.txTo),
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: new PublicKey(input.token), isSigner: false, isWritable: false },
    ],
    data,
  });
  const recentBlockhash = new PublicKey(createHash('sha256').update(`blockhash:${input.orderId}`).digest()).toBase58();
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash, instructions: [instruction] }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
}

const bytesToHex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;
