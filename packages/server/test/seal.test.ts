import { loadBundle } from '@swap-gateway/openapi';
import { describe, expect, it } from 'vitest';
import type { RouteKind } from '../src/config/config.js';
import { canonicalJson, sealedForm } from '../src/quote/seal.js';
import { sealedFields, type SealedField } from '../src/quote/sealed-fields.js';
import {
  affiliate,
  offrampParams,
  onrampParams,
  senderAddress,
  solanaSwapParams,
  testServerPerSuite,
  tokenSwapParams,
  tronOfframpParams,
} from './helpers.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, drops null and undefined members, keeps array order and nulls in arrays', () => {
    const value = { b: 1, a: { z: 'x', y: null, c: [3, { e: undefined, d: 'é"' }, null] }, n: null, u: undefined, t: true, s: '' };
    expect(canonicalJson(value)).toBe('{"a":{"c":[3,{"d":"é\\""},null],"z":"x"},"b":1,"s":"","t":true}');
  });

  it('writes scalars, empty containers and an object of only nulls as JSON does', () => {
    expect([
      canonicalJson('a'),
      canonicalJson(1.5),
      canonicalJson(null),
      canonicalJson([]),
      canonicalJson({}),
      canonicalJson({ a: null }),
    ]).toEqual(['"a"', '1.5', 'null', '[]', '{}', '{}']);
  });

  it('orders keys by UTF-16 code units', () => {
    expect(canonicalJson({ b: 1, B: 2, _: 3, '10': 4, '9': 5, ä: 6 })).toBe('{"10":4,"9":5,"B":2,"_":3,"b":1,"ä":6}');
  });

  it('escapes strings and keys exactly as JSON.stringify does', () => {
    const strings = [
      'plain',
      'quote " and \\ backslash',
      'tab\tnew\nline\u0001\u001f',
      'del \u007f é €',
      'pair \ud83d\ude00',
      'lone \ud800 and \udfff',
      '',
    ];
    for (const text of strings) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text));
      expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    }
  });
});

describe('the sealed form of a quote', () => {
  const fields = sealedFields(loadBundle('gateway'));
  const { api } = testServerPerSuite();

  const withAffiliate = { affiliates: `${affiliate}:25` };
  const issued = async () => {
    const quotes: Array<{ route: RouteKind; quote: Record<string, unknown> }> = [];
    for (const params of [
      onrampParams(withAffiliate),
      onrampParams({ sender: senderAddress }),
      offrampParams(withAffiliate),
      tronOfframpParams(),
      tokenSwapParams(withAffiliate),
      solanaSwapParams(),
    ]) {
      const body = (await api.quote(params)).body as Record<RouteKind, Record<string, unknown>>;
      const route = Object.keys(body)[0] as RouteKind;
      quotes.push({ route, quote: body[route] });
    }
    return quotes;
  };

  it('covers every member the quote engine issues, at every level', async () => {
    const unsealed = (list: SealedField[] | undefined, value: unknown, at: string): string[] => {
      if (Array.isArray(value)) return value.flatMap((item, index) => unsealed(list, item, `${at}[${index}]`));
      if (value === null || typeof value !== 'object') return [];
      return Object.entries(value).flatMap(([name, member]) => {
        const field = list?.find((candidate) => candidate.name === name);
        if (!field) return name === 'signedQuoteData' && at === '' ? [] : [`${at}.${name}`];
        return unsealed(Array.isArray(member) ? field.items : field.members, member, `${at}.${name}`);
      });
    };
    const quotes = await issued();
    expect(new Set(quotes.map(({ route }) => route))).toEqual(new Set(['onramp', 'offramp', 'tokenSwap']));
    for (const { route, quote } of quotes) expect(unsealed(fields[route], quote, ''), route).toEqual([]);
  });

  it('is the same whatever the key order and with null members left out, and changes with any value', async () => {
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .filter(([, member]) => member !== null)
                .map(([name, member]) => [name, reversed(member)]),
            )
          : value;
    const leaves = (value: unknown, path: string[] = []): string[][] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([name, member]) => leaves(member, [...path, name]))
        : value === null
          ? []
          : [path];
    const changed = (quote: Record<string, unknown>, path: string[], to: unknown): Record<string, unknown> => {
      const copy = structuredClone(quote);
      const parent = path.slice(0, -1).reduce<any>((node, name) => node[name], copy);
      parent[path.at(-1)!] = to;
      return copy;
    };
    for (const { route, quote } of await issued()) {
      const form = sealedForm(fields[route], quote);
      expect(sealedForm(fields[route], reversed(quote) as Record<string, unknown>), route).toBe(form);
      for (const path of leaves(quote).filter((path) => path[0] !== 'signedQuoteData')) {
        const value = path.reduce<any>((node, name) => node[name], quote);
        const other = typeof value === 'string' ? `${value}0` : typeof value === 'number' ? value + 1 : !value;
        for (const to of [other, typeof value === 'number' ? String(value) : Number.isNaN(Number(value)) ? { value } : Number(value), null])
          expect(sealedForm(fields[route], changed(quote, path, to)), `${route} ${path.join('.')} → ${JSON.stringify(to)}`).not.toBe(form);
      }
    }
  });
});
