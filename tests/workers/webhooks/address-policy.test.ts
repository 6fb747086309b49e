import { describe, expect, it } from 'vitest';
import { canonicalHost, checkResolvedAddresses, checkWebhookUrl, isPublicAddress } from '../../../workers/webhooks/address-policy.js';

const ALLOWED = ['partner.example', '10.1.2.3', 'fd00::5'];

describe('checkWebhookUrl', () => {
  it.each([
    ['https://hooks.partner.com/events', 'a public name over https'],
    ['https://hooks.partner.com:8443/events?x=1', 'any port, a query'],
    ['https://93.184.216.34/hook', 'a public IPv4 literal'],
    ['https://[2606:4700::1111]/hook', 'a public IPv6 literal'],
    ['https://[::ffff:8.8.8.8]/hook', 'an IPv4-mapped public address'],
    ['http://partner.example:8080/hook', 'http to an allowed name'],
    ['https://PARTNER.example./hook', 'an allowed name spelled otherwise'],
    ['http://10.1.2.3/hook', 'http to an allowed private address'],
    ['http://[fd00:0:0:0:0:0:0:5]/hook', 'an allowed IPv6 address spelled in full'],
  ])('accepts %s (%s)', (url) => {
    expect(checkWebhookUrl(url, ALLOWED)).toEqual({ ok: true });
  });

  it.each([
    ['not a url', /not an absolute URL/],
    ['ftp://hooks.partner.com/x', /must be https/],
    ['file:///etc/passwd', /must be https/],
    ['http://hooks.partner.com/events', /http is accepted for an allowed host alone/],
    ['https://user:pw@hooks.partner.com/', /user name or password/],
    ['https://user@partner.example/', /user name or password/],
    ['https://127.0.0.1/', /127\.0\.0\.1 is not a public address/],
    ['https://127.1/', /127\.0\.0\.1 is not a public address/], // the URL parser's shorthand
    ['https://2130706433/', /127\.0\.0\.1 is not a public address/], // 127.0.0.1 as one number
    ['https://0x7f.0.0.1/', /127\.0\.0\.1 is not a public address/],
    ['https://10.0.0.1/', /not a public address/],
    ['https://172.16.0.1/', /not a public address/],
    ['https://172.31.255.254/', /not a public address/],
    ['https://192.168.1.1/', /not a public address/],
    ['https://169.254.169.254/latest/meta-data', /not a public address/],
    ['https://100.64.0.1/', /not a public address/],
    ['https://0.0.0.0/', /not a public address/],
    ['https://224.0.0.1/', /not a public address/],
    ['https://[::1]/', /::1 is not a public address/],
    ['https://[::]/', /not a public address/],
    ['https://[fe80::1]/', /not a public address/],
    ['https://[fc00::1]/', /not a public address/],
    ['https://[fd12:3456::1]/', /not a public address/],
    ['https://[ff02::1]/', /not a public address/],
    ['https://[::ffff:127.0.0.1]/', /not a public address/],
    ['https://[::ffff:10.0.0.1]/', /not a public address/],
    ['https://[::ffff:169.254.169.254]/', /not a public address/],
    ['https://localhost/', /localhost names an internal host/],
    ['https://LocalHost./', /localhost names an internal host/],
    ['https://api.localhost/', /api\.localhost names an internal host/],
    ['https://intranet/', /intranet names an internal host/],
    ['https://printer.local/', /names an internal host/],
    ['https://metadata.google.internal/', /names an internal host/],
    ['http://10.1.2.4/', /must be https/], // next to an allowed address, not it
  ])('refuses %s', (url, reason) => {
    const check = checkWebhookUrl(url, ALLOWED);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toMatch(reason);
  });

  it('accepts an internal host once it is allowed, over http or https', () => {
    expect(checkWebhookUrl('https://localhost/', [])).toMatchObject({ ok: false });
    expect(checkWebhookUrl('https://localhost/', ['localhost'])).toEqual({ ok: true });
    expect(checkWebhookUrl('http://localhost:3000/', ['localhost'])).toEqual({ ok: true });
    expect(checkWebhookUrl('https://192.168.1.1/', ['192.168.1.1'])).toEqual({ ok: true });
  });
});

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '93.184.216.34', '100.128.0.1', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    '%s is public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '100.127.255.254',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1',
    '::', '::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fc00::1', 'fdff::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:192.168.0.1', '64:ff9b::10.0.0.1', '::127.0.0.1',
    '2001:db8::1', '2002:7f00:1::1', 'not-an-address', '',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));
});

describe('checkResolvedAddresses', () => {
  it('accepts a name whose every address is public', () => {
    expect(checkResolvedAddresses('hooks.partner.com', ['93.184.216.34', '2606:4700::1111'], [])).toEqual({ ok: true });
  });

  it('refuses a public name that resolves to an internal address (DNS rebinding)', () => {
    expect(checkResolvedAddresses('hooks.partner.com', ['127.0.0.1'], [])).toEqual({
      ok: false,
      reason: 'hooks.partner.com resolved to 127.0.0.1, not a public address',
    });
  });

  it('refuses the whole answer when any one address is internal', () => {
    expect(checkResolvedAddresses('hooks.partner.com', ['93.184.216.34', '::ffff:10.0.0.1'], [])).toMatchObject({ ok: false });
  });

  it('refuses an empty answer', () => {
    expect(checkResolvedAddresses('hooks.partner.com', [], [])).toMatchObject({ ok: false });
  });

  it('accepts any address for an allowed name, and an allowed address for any name', () => {
    expect(checkResolvedAddresses('Partner.Example', ['127.0.0.1'], ['partner.example'])).toEqual({ ok: true });
    expect(checkResolvedAddresses('hooks.partner.com', ['127.0.0.1'], ['127.0.0.1'])).toEqual({ ok: true });
    expect(checkResolvedAddresses('hooks.partner.com', ['127.0.0.2'], ['127.0.0.1'])).toMatchObject({ ok: false });
  });
});

describe('canonicalHost', () => {
  it.each([
    ['PARTNER.Example.', 'partner.example'],
    ['[::1]', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['bücher.example', 'xn--bcher-kva.example'],
    [' 10.1.2.3 ', '10.1.2.3'],
  ])('writes %s as %s', (host, canonical) => expect(canonicalHost(host)).toBe(canonical));

  it('keeps what is not a host as it is, so it matches no host', () => {
    expect(canonicalHost('evil@127.0.0.1')).toBe('evil@127.0.0.1');
    expect(canonicalHost('127.0.0.1:80')).toBe('127.0.0.1:80');
  });
});
