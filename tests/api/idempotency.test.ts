import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprint } from '../../api/idempotency.js';

/** The canonical form by its definition, written the plain way: what the fast one must equal. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

describe('request fingerprints', () => {
  it('stay what they were when stored: a retry after an upgrade must still match its first request', () => {
    // Computed by the fingerprint of e5ddd14 (before its canonical JSON was rewritten for speed).
    const body = {
      customerId: 'cus_42', currency: 'EUR',
      lines: [{ sku: 'SKU-1', quantity: 2, unitPrice: 1999 }, { unitPrice: 5, sku: 'ß"\\\n\u2028\ud83d\ude00\ud800', quantity: -0 }],
      address: { name: 'Ada', line1: '1 Main St', line2: null, city: 'Berlin', postalCode: '10115', country: 'DE' },
      nested: [[], {}, [true, false, null, 1.5e300, 1e-7]], Z: 1, a: 2, é: 4,
    };
    expect(fingerprint('POST', '/orders', body)).toBe('YUurzp6IJhbovDdXLmz73cu-gvvSu5BvvFvMOY4A-ag');
  });

  it('read any JSON value as its definition says: members sorted by name, strings escaped as JSON.stringify does', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00', 'é', 'a') }));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double(), fc.integer(), text, fc.array(tie('value')), fc.dictionary(text, tie('value'))),
    })).value;
    fc.assert(fc.property(json, (value) => {
      // As a parsed body holds it: JSON.parse of its text (no -0, no NaN, members named __proto__ own).
      const parsed: unknown = JSON.parse(JSON.stringify(value));
      expect(canonicalJson(parsed)).toBe(reference(parsed));
    }), { numRuns: 2000 });
  });

  it('do not depend on member order or white space', () => {
    expect(fingerprint('POST', '/orders', JSON.parse('{ "b": [1, {"y": 2, "x": 1}], "a": "z" }'))).toBe(fingerprint('POST', '/orders', JSON.parse('{"a":"z","b":[1,{"x":1,"y":2}]}')));
  });
});
