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

/** The modules each folder may not import from, and why. */
const borders: Array<{ folder: string; forbidden: RegExp; why: string }> = [
  { folder: 'volumes', forbidden: /(^|\/)(orders|quote)\//, why: 'volume sums are read by get-quote and create-order alike' },
  { folder: 'quote', forbidden: /(^|\/)orders\//, why: 'create-order reads quotes, not the other way round' },
  { folder: 'chains', forbidden: /(^|\/)orders\//, why: 'the chain adapters take domain orders, not store rows' },
  { folder: 'handlers', forbidden: /(^|\/)store\/|queries\.js$/, why: 'handlers run no SQL' },
  {
    folder: 'http',
    forbidden: /(^|\/)(handlers|orders|quote|volumes|chains|sandbox|store)\//,
    why: 'the HTTP edge (keys, limits, CORS, timeouts, the document) knows callers and requests; the handlers call the domain',
  },
];

describe('the borders between the domain modules', () => {
  const folderFiles = (folder: string) =>
    readdirSync(join(source, folder))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${folder}/${name}`);

  it.each(borders.flatMap(({ folder, forbidden, why }) => folderFiles(folder).map((file) => [file, forbidden, why] as const)))(
    '%s keeps its border',
    (file, forbidden, why) => {
      expect(
        imports(file).filter((from) => forbidden.test(from)),
        why,
      ).toEqual([]);
    },
  );

  it('app.ts and the handlers run no SQL: no store, no queries, no query calls', () => {
    for (const file of ['app.ts', ...folderFiles('handlers')]) {
      const text = readFileSync(join(source, file), 'utf8');
      expect(
        imports(file).filter((from) => /(^|\/)store\/|queries\.js$/.test(from)),
        file,
      ).toEqual([]);
      expect(text.match(/\.query\(|\bSELECT\b|\bINSERT\b|\bUPDATE\b/g), file).toBeNull();
    }
  });

  it('only the store reads SQL states: a duplicate order is a conflict the insert reports', () => {
    for (const file of files.filter((name) => !name.startsWith('store/')))
      expect(readFileSync(join(source, file), 'utf8'), file).not.toMatch(/'23505'|SQLSTATE/);
  });
});
