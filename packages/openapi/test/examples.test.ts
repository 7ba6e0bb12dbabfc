/**
 * Every example of the document validates against its schema, the examples
 * cover what the issue asks (each route, status, tx data type and error code),
 * and their addresses, txids and hashes are real for their chain.
 */
import { createHash } from 'node:crypto';
import { address as bitcoinAddress, networks, Transaction, Psbt } from 'bitcoinjs-lib';
import bs58 from 'bs58';
import { isAddress, getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { createSchemaValidator, detailShapesByCode, detailsShapeProblem, loadBundle, readOperations } from '@swap-gateway/openapi';
import { branches, componentSchema, type Schema } from './helpers/schema.js';

const document = loadBundle('gateway');
const validator = createSchemaValidator(document);

interface Example {
  label: string;
  pointer: string;
  value: unknown;
  operation: string;
  status?: string;
}

/** Every named example of every request body, response body and parameter, with the pointer of its schema. */
function collectExamples(): Example[] {
  const found: Example[] = [];
  for (const operation of readOperations(document)) {
    const name = `${operation.method} ${operation.path}`;
    for (const media of Object.values(operation.requestBody?.content ?? {})) {
      for (const [key, example] of Object.entries(media.examples))
        found.push({ label: `${name} request ${key}`, pointer: media.schemaPointer!, value: example.value, operation: name });
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const media of Object.values(response.content)) {
        for (const [key, example] of Object.entries(media.examples))
          found.push({ label: `${name} ${status} ${key}`, pointer: media.schemaPointer!, value: example.value, operation: name, status });
      }
    }
    for (const parameter of operation.parameters) {
      if (parameter.example !== undefined)
        found.push({
          label: `${name} parameter ${parameter.name}`,
          pointer: parameter.schemaPointer,
          value: parameter.example,
          operation: name,
        });
    }
  }
  for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Schema>)) {
    for (const [index, value] of ((schema.examples as unknown[] | undefined) ?? []).entries()) {
      found.push({ label: `schema ${name} example ${index}`, pointer: validator.schemaPointer(name), value, operation: 'components' });
    }
  }
  return found;
}

const examples = collectExamples();
const responseExamples = (operation: string, status: string) =>
  examples.filter((example) => example.operation === operation && example.status === status).map((example) => example.value);

describe('every example validates against its schema', () => {
  it('finds the examples', () => expect(examples.length).toBeGreaterThan(80));
  it.each(examples.map((example) => [example.label, example] as const))('%s', (_label, { pointer, value }) => {
    const { valid, errors } = validator.validate(pointer, value);
    expect(valid, validator.describe(errors)).toBe(true);
  });
});

describe('the examples cover the API', () => {
  const onlyKey = (value: unknown) => Object.keys(value as object)[0];

  it('get-quote shows each route', () => {
    expect(new Set(responseExamples('GET /v4/get-quote', '200').map(onlyKey))).toEqual(new Set(['onramp', 'offramp', 'tokenSwap']));
  });

  it('V3 and V4 create-order take each route and return each tx data type', () => {
    for (const operation of ['POST /v4/create-order', 'POST /v3/create-order']) {
      const requests = examples
        .filter((example) => example.operation === operation && example.status === undefined)
        .map((example) => onlyKey(example.value));
      expect(new Set(requests), operation).toEqual(new Set(['onramp', 'offramp', 'tokenSwap']));
      const results = responseExamples(operation, '201') as Record<string, { tx?: { type: string } }>[];
      expect(new Set(results.map(onlyKey))).toEqual(new Set(['onramp', 'offramp', 'tokenSwap']));
      const txTypes = results.flatMap((result) =>
        Object.values(result)
          .map((inner) => inner.tx?.type)
          .filter(Boolean),
      );
      expect(new Set(txTypes)).toEqual(new Set(['evm', 'tron', 'solana']));
    }
  });

  it('get-order shows each status, in both versions', () => {
    for (const operation of ['GET /v4/get-order/{id}', 'GET /v3/get-order/{id}']) {
      const statuses = (responseExamples(operation, '200') as { status: object }[]).map((order) => onlyKey(order.status));
      expect(new Set(statuses)).toEqual(new Set(['inProgress', 'success', 'failed', 'refunded']));
    }
  });

  it('every error code has at least one example', () => {
    const v4 = branches(document, componentSchema(document, 'GatewayErrorCodeV4')).flatMap(
      (branch) => (branch.enum as string[] | undefined) ?? [],
    );
    const shown = new Set(
      examples
        .filter((example) => example.status && /^[45]/.test(example.status))
        .map((example) => (example.value as { code?: string }).code),
    );
    const missing = v4.filter((code) => !shown.has(code));
    expect(v4).toHaveLength(32);
    expect(missing).toEqual([]);
  });

  it('paging examples show a page with a cursor and the last page', () => {
    const pages = responseExamples('GET /v4/get-orders/{user_address}', '200') as { nextCursor?: string | null }[];
    expect(pages.some((page) => typeof page.nextCursor === 'string')).toBe(true);
    expect(pages.some((page) => page.nextCursor === null || page.nextCursor === undefined)).toBe(true);
  });
});

describe("every error example's details are its code's shape", () => {
  const shapes = detailShapesByCode(document);
  const errorExamples = examples.filter((example) => example.status && /^[45]/.test(example.status));
  const tied = errorExamples.filter((example) => shapes.has(String((example.value as { code?: unknown }).code)));

  it('finds the tied codes and their examples', () => {
    expect(shapes.size).toBe(10);
    // Every tied code has an example (the codes all do), and each is held to its shape below.
    expect(new Set(tied.map((example) => (example.value as { code: string }).code))).toEqual(new Set(shapes.keys()));
  });

  it.each(tied.map((example) => [example.label, example] as const))('%s', (_label, { value }) => {
    expect(detailsShapeProblem(shapes, validator, value)).toBeUndefined();
  });

  it('the check refuses another shape, and null, for a tied code; leaves the other codes and absent details alone', () => {
    const minimumActual = { minimum: '10000', actual: '5000' };
    expect(detailsShapeProblem(shapes, validator, { code: 'INSUFFICIENT_AMOUNT', details: minimumActual })).toMatch(
      /INSUFFICIENT_AMOUNT are not its shape expectedActual \(expected, actual\)/,
    );
    expect(
      detailsShapeProblem(shapes, validator, { code: 'INSUFFICIENT_SOLVER_BALANCE', details: { required: '1', available: '0' } }),
    ).toMatch(/tokenLimit/);
    expect(detailsShapeProblem(shapes, validator, { code: 'EXCEEDED_LIMIT', details: null })).toMatch(/EXCEEDED_LIMIT/);
    expect(detailsShapeProblem(shapes, validator, { code: 'QUOTE_AMOUNT_TOO_LOW', details: minimumActual })).toBeUndefined();
    expect(detailsShapeProblem(shapes, validator, { code: 'INVALID_REQUEST', details: minimumActual })).toBeUndefined();
    expect(detailsShapeProblem(shapes, validator, { code: 'INSUFFICIENT_AMOUNT' })).toBeUndefined();
  });

  it('ties only codes of the document, to shapes the description lists, and its prose says the same', () => {
    const codes = branches(document, componentSchema(document, 'GatewayErrorCodeV4')).flatMap(
      (branch) => (branch.enum as string[] | undefined) ?? [],
    );
    const prose = String(componentSchema(document, 'GatewayErrorDetails').description).replace(/\s+/g, ' ');
    const clauses = prose.split(/; |: /);
    for (const { code, title, fields } of shapes.values()) {
      expect(codes).toContain(code);
      expect(fields.length).toBeGreaterThan(0);
      // The clause that names the code names its shape by title.
      expect(
        clauses.some((clause) => new RegExp(`\\b${code}\\b`).test(clause) && clause.includes(`\`${title}\``)),
        `${code} → ${title} in the description`,
      ).toBe(true);
    }
  });
});

describe('example values are real for their chain', () => {
  const chainOf = (chain: string) => (chain === 'bitcoin' ? 'bitcoin' : chain === 'tron' ? 'tron' : chain === 'solana' ? 'solana' : 'evm');
  const isBitcoinAddress = (value: string) => {
    try {
      bitcoinAddress.toOutputScript(value, networks.bitcoin);
      return true;
    } catch {
      return false;
    }
  };
  const isTronAddress = (value: string) => {
    try {
      const bytes = bs58.decode(value);
      return bytes.length === 25 && bytes[0] === 0x41 && tronChecksumOk(bytes);
    } catch {
      return false;
    }
  };
  const isSolanaAddress = (value: string) => {
    try {
      return bs58.decode(value).length === 32;
    } catch {
      return false;
    }
  };
  const isChecksummedEvm = (value: string) =>
    isAddress(value, { strict: true }) && (value === value.toLowerCase() || getAddress(value) === value);
  const valid = {
    bitcoin: (value: string) => isBitcoinAddress(value) || value === '0x0000000000000000000000000000000000000000',
    evm: isChecksummedEvm,
    tron: isTronAddress,
    solana: isSolanaAddress,
  };

  /** Walks a value and yields [where, chain, address] for every address that sits next to a `chain`. */
  function* chainAddresses(value: unknown, at: string): Generator<[string, string, string]> {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) yield* chainAddresses(item, `${at}[${index}]`);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    const chain = typeof object.chain === 'string' ? object.chain : typeof object.srcChain === 'string' ? object.srcChain : undefined;
    for (const [key, field] of Object.entries(object)) {
      if (typeof field === 'string' && chain && ['address', 'token', 'tokenAddress', 'srcToken'].includes(key))
        yield [`${at}.${key}`, chain, field];
      if (typeof field === 'string' && key === 'dstToken' && typeof object.dstChain === 'string')
        yield [`${at}.${key}`, object.dstChain, field];
      yield* chainAddresses(field, `${at}.${key}`);
    }
  }

  const pairs = examples.flatMap((example) => [...chainAddresses(example.value, example.label)]);
  it('finds chain-tagged addresses in the examples', () => expect(pairs.length).toBeGreaterThan(100));
  it.each(pairs)('%s is a %s address (%s)', (_where, chain, value) => {
    expect(valid[chainOf(chain) as keyof typeof valid](value)).toBe(true);
  });

  const strings = examples.flatMap((example) => [...walkStrings(example.value, example.label)]);
  it.each(
    strings.filter(([key]) =>
      /^(txid|txHash|bitcoin_tx_hex|psbt_hex|transaction|recipient|sender|refundAddress|ownerAddress|affiliateAddress|txTo|to|depositAddress)$/.test(
        key,
      ),
    ),
  )('%s %s looks real', (key, _where, value) => {
    if (key === 'txid') expect(value).toMatch(/^[0-9a-f]{64}$/);
    else if (key === 'txHash') expect(value).toMatch(/^(0x)?[0-9a-f]{64}$/);
    else if (key === 'bitcoin_tx_hex') expect(() => Transaction.fromHex(value)).not.toThrow();
    else if (key === 'psbt_hex') expect(() => Psbt.fromHex(value)).not.toThrow();
    else if (key === 'transaction') expect(Buffer.from(value, 'base64').length).toBeGreaterThan(100);
    else
      expect(
        Object.values(valid).some((check) => check(value)),
        value,
      ).toBe(true);
  });

  it('the register-tx example pays the onramp order of the create-order example, with its OP_RETURN', () => {
    const request = examples.find((example) => example.label === 'PATCH /v4/register-tx request onramp')!.value as {
      onramp: { order_id: string; bitcoin_tx_hex: string };
    };
    const order = (
      responseExamples('POST /v4/create-order', '201') as { onramp?: { order_id: string; address: string; op_return_data: string } }[]
    ).find((result) => result.onramp?.order_id === request.onramp.order_id)!.onramp!;
    const transaction = Transaction.fromHex(request.onramp.bitcoin_tx_hex);
    const outputs = transaction.outs.map((output) => ({ script: Buffer.from(output.script).toString('hex'), value: output.value }));
    expect(
      outputs.some(
        (output) => output.script === Buffer.from(bitcoinAddress.toOutputScript(order.address, networks.bitcoin)).toString('hex'),
      ),
    ).toBe(true);
    expect(outputs.some((output) => output.script.endsWith(order.op_return_data) && output.script.startsWith('6a'))).toBe(true);
    const txidExample = (responseExamples('PATCH /v4/register-tx', '200') as unknown[]).find(
      (value): value is { onramp: { txid: string } } => typeof value === 'object',
    );
    expect(txidExample?.onramp.txid).toBe(transaction.getId());
  });
});

function* walkStrings(value: unknown, at: string): Generator<[string, string, string]> {
  if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* walkStrings(item, `${at}[${index}]`);
  else if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === 'string' && field !== '') yield [key, at, field];
      else yield* walkStrings(field, `${at}.${key}`);
    }
  }
}

function tronChecksumOk(bytes: Uint8Array): boolean {
  const body = bytes.subarray(0, 21);
  const hash = createHash('sha256').update(createHash('sha256').update(body).digest()).digest();
  return hash.subarray(0, 4).equals(Buffer.from(bytes.subarray(21)));
}
