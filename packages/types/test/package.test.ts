// What the package ships, read from its build output: no code that runs, and a declaration for every
// path and operation of the document (openapi-typescript leaves out what its options exclude, and
// a path missing from `paths` would only surface in a client that calls it).
import { readFileSync } from 'node:fs';
import { loadBundle, readOperations } from '@swap-gateway/openapi';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const dist = new URL('../dist/', import.meta.url);

/** The member names of an exported interface of dist/openapi.d.ts. */
function membersOf(interfaceName: string): string[] {
  const file = ts.createSourceFile('openapi.d.ts', readFileSync(new URL('openapi.d.ts', dist), 'utf8'), ts.ScriptTarget.Latest);
  const declaration = file.statements.find(
    (statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === interfaceName,
  );
  if (!declaration) throw new Error(`dist/openapi.d.ts declares no interface ${interfaceName}`);
  return declaration.members.map((member) =>
    member.name && ts.isStringLiteral(member.name) ? member.name.text : (member.name?.getText(file) ?? ''),
  );
}

describe('the built package', () => {
  test('adds no code to a bundle: its runtime entry exports nothing', async () => {
    expect(Object.keys(await import(new URL('index.js', dist).href))).toEqual([]);
  });

  test('declares every path and every operation of the document', () => {
    const operations = readOperations(loadBundle('gateway'));
    expect(operations.length).toBeGreaterThan(0);
    expect(membersOf('paths').sort()).toEqual([...new Set(operations.map((operation) => operation.path))].sort());
    expect(membersOf('operations').sort()).toEqual(operations.map((operation) => operation.operationId).sort());
  });
});
