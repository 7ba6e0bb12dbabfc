import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/quote/seal.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, drops null and undefined members, keeps array order and nulls in arrays', () => {
    const value = { b: 1, a: { z: 'x', y: null, c: [3, { e: undefined, d: 'é"' }, null] }, n: null, u: undefined, t: true, s: '' };
    expect(canonicalJson(value)).toBe('{"a":{"c":[3,{"d":"é\\""},null],"z":"x"},"b":1,"s":"","t":true}');
  });

  it('writes scalars, empty containers and an object of only nulls as JSON does', () => {
    expect([canonicalJson('a'), canonicalJson(1.5), canonicalJson(null), canonicalJson([]), canonicalJson({}), canonicalJson({ a: null })]).toEqual(['"a"', '1.5', 'null', '[]', '{}', '{}']);
  });

  it('orders keys by UTF-16 code units, as the seals already issued were made', () => {
    expect(canonicalJson({ b: 1, B: 2, _: 3, '10': 4, '9': 5, ä: 6 })).toBe('{"10":4,"9":5,"B":2,"_":3,"b":1,"ä":6}');
  });

  it('escapes strings and keys exactly as JSON.stringify does', () => {
    const strings = ['plain', 'quote " and \\ backslash', 'tab\tnew\nline\u0001\u001f', 'del \u007f é €', 'pair \ud83d\ude00', 'lone \ud800 and \udfff', ''];
    for (const text of strings) {
      expect(canonicalJson(text)).toBe(JSON.stringify(text));
      expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
    }
  });
});
