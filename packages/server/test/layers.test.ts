/**
 * The domain knows no HTTP: quote/, orders/, chains/, config/, store/, keys/ and sandbox/ import nothing from
 * http/, handlers/ or Fastify, and throw DomainErrors (src/errors.ts) whose status http/failures.ts
 * decides.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const source = join(import.meta.dirname, '..', 'src');
const domain = ['quote', 'orders', 'chains', 'config', 'store', 'keys', 'sandbox'];
const files = domain.flatMap((folder) =>
  readdirSync(join(source, folder))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${folder}/${name}`),
);
const imports = (file: string) =>
  [...readFileSync(join(source, file), 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)].map((match) => match[1]!);

describe('the domain imports no HTTP', () => {
  it('reads the domain files', () => {
    expect(files).toEqual(expect.arrayContaining(['quote/engine.ts', 'orders/service.ts', 'orders/lifecycle.ts', 'chains/bitcoin.ts']));
  });

  it.each(files.map((file) => [file]))('%s', (file) => {
    const http = imports(file).filter((from) => /(^|\/)(http|handlers)\//.test(from) || /^fastify|^@fastify\//.test(from));
    expect(http).toEqual([]);
  });
});
