// The stand-in URL check the service is wired with until the sender's checkWebhookUrl replaces it.
import { describe, expect, it } from 'vitest';
import { placeholderUrlCheck } from '../../../workers/webhooks/url-check-placeholder.js';

describe('the placeholder webhook URL check', () => {
  const check = placeholderUrlCheck(['hooks.internal', '[::1]']);

  it('accepts https, and http for a listed host only', () => {
    expect(check('https://hooks.partner.example/in')).toEqual({ ok: true });
    expect(check('http://hooks.internal:8080/in')).toEqual({ ok: true });
    expect(check('http://[::1]/in')).toEqual({ ok: true });
  });

  it('refuses http for a host not listed, other schemes and what is no URL, saying why', () => {
    for (const url of ['http://hooks.partner.example/in', 'ftp://hooks.internal/', 'not a url']) {
      expect(check(url)).toEqual({ ok: false, reason: expect.any(String) });
    }
    expect(placeholderUrlCheck([])('http://hooks.internal/')).toMatchObject({ ok: false, reason: expect.stringContaining('https') });
  });
});
