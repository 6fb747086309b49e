// Where a webhook may be sent (OWASP API7, server-side request forgery): an https URL to a public
// host, or a host the operator listed in WEBHOOK_ALLOWED_HOSTS (for those alone http is accepted
// too). The URL is checked when a subscription names it, and the address actually connected to is
// checked again at every connection (sender.ts), since a DNS answer can point a public-looking
// name at an internal address.
import { BlockList, isIP } from 'node:net';

export type AddressCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const OK: AddressCheck = { ok: true };
const refused = (reason: string): AddressCheck => ({ ok: false, reason });

// IPv4 blocks that are not globally reachable (IANA special-purpose registry). BlockList matches
// an IPv4-mapped IPv6 address (::ffff:a.b.c.d) against these too, but isPublicAddress decodes
// embedded IPv4 addresses itself so that it does not depend on that.
const SPECIAL_V4 = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", the unspecified address among them
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services among them
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relays
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, the broadcast address among them
] as const) {
  SPECIAL_V4.addSubnet(prefix, bits, 'ipv4');
}

// Global unicast IPv6 is 2000::/3 alone: outside it are the unspecified address, loopback,
// unique-local (fc00::/7), link-local (fe80::/10), multicast (ff00::/8) and the IPv4-embedding
// forms handled below.
const GLOBAL_V6 = new BlockList();
GLOBAL_V6.addSubnet('2000::', 3, 'ipv6');
// Blocks inside 2000::/3 that no webhook endpoint lives in, or that embed an IPv4 address which may
// be an internal one (Teredo in 2001::/32, 6to4 in 2002::/16).
const SPECIAL_V6 = new BlockList();
SPECIAL_V6.addSubnet('2001::', 23, 'ipv6'); // IETF protocol assignments: Teredo, benchmarking, ORCHID
SPECIAL_V6.addSubnet('2001:db8::', 32, 'ipv6'); // documentation
SPECIAL_V6.addSubnet('2002::', 16, 'ipv6'); // 6to4
SPECIAL_V6.addSubnet('3fff::', 20, 'ipv6'); // documentation

/** Whether an IP address (v4 or v6, a zone index ignored) is a public one; false for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  const ip = withoutZone(address);
  switch (isIP(ip)) {
    case 4:
      return !SPECIAL_V4.check(ip, 'ipv4');
    case 6: {
      const v4 = embeddedIPv4(ip);
      if (v4 !== null) return isPublicAddress(v4);
      return GLOBAL_V6.check(ip, 'ipv6') && !SPECIAL_V6.check(ip, 'ipv6');
    }
    default:
      return false;
  }
}

// An IPv4-mapped address (::ffff:a.b.c.d) reaches that IPv4 address; so does one in the NAT64
// prefix (64:ff9b::a.b.c.d), which a DNS64 resolver answers for an IPv4-only host. Each is as
// public as the address it carries, so a DNS64 network can still deliver to a public host.
function embeddedIPv4(v6: string): string | null {
  const g = groupsOf(v6);
  const mapped = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0;
  if (!mapped && !nat64) return null;
  const high = g[6] ?? 0;
  const low = g[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

// The eight 16-bit groups of a valid IPv6 address (isIP said 6), "::" and a dotted tail expanded.
function groupsOf(v6: string): number[] {
  let text = v6;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const before = head === '' ? [] : head.split(':');
  const after = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16));
}

function withoutZone(address: string): string {
  const percent = address.indexOf('%');
  return percent === -1 ? address : address.slice(0, percent);
}

/**
 * A host name or address in one spelling, so that an allowed-hosts entry and a URL's host compare
 * equal however each was written: lower case, no brackets, zone index or trailing dot, IPv6
 * compressed and IPv4 dotted as the WHATWG URL parser writes them, international names in punycode.
 */
export function canonicalHost(host: string): string {
  const bare = withoutZone(host.trim().replace(/^\[(.*)\]$/, '$1'));
  // Not a host at all (a port, a path, user info): kept as it is, so it equals no real host.
  if (/[/@?#\\\s]/.test(bare) || (isIP(bare) !== 6 && bare.includes(':'))) return bare.toLowerCase();
  try {
    const parsed = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname;
    return parsed.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  } catch {
    return bare.toLowerCase().replace(/\.+$/, '');
  }
}

/** Whether a host (name or address) is one of the allowed hosts, each spelling canonicalised. */
export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  const wanted = canonicalHost(host);
  return allowedHosts.some((allowed) => allowed.trim() !== '' && canonicalHost(allowed) === wanted);
}

// Names that lead inside whatever they resolve to: localhost (RFC 6761), a single label (completed
// by the resolver's search domains to an internal name), and the suffixes reserved for local
// networks (mDNS .local, .internal, .home.arpa).
function internalName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    !name.includes('.') ||
    name.endsWith('.local') ||
    name.endsWith('.internal') ||
    name.endsWith('.home.arpa')
  );
}

/**
 * Whether a subscription may name this URL: https to a public host, or http(s) to an allowed host.
 * Pure: no DNS here; a name is checked again, as the addresses it resolves to, at each connection.
 */
export function checkWebhookUrl(url: string, allowedHosts: readonly string[]): AddressCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refused('not an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refused('the URL must be https');
  if (parsed.username !== '' || parsed.password !== '') return refused('a user name or password in the URL is refused');
  const host = canonicalHost(parsed.hostname);
  if (host === '') return refused('the URL names no host');
  if (isAllowedHost(host, allowedHosts)) return OK;
  if (parsed.protocol !== 'https:') return refused('the URL must be https (http is accepted for an allowed host alone)');
  if (isIP(host) !== 0) return isPublicAddress(host) ? OK : refused(`${host} is not a public address`);
  if (internalName(host)) return refused(`${host} names an internal host`);
  return OK;
}

/**
 * Whether a connection to `host` may go to the addresses a resolver found for it: every one of them
 * public, unless the host name is allowed or the address itself is. A name with any internal address
 * is refused whole, rather than trusting the answer's other addresses.
 */
export function checkResolvedAddresses(host: string, addresses: readonly string[], allowedHosts: readonly string[]): AddressCheck {
  if (isAllowedHost(host, allowedHosts)) return OK;
  if (addresses.length === 0) return refused(`${host} resolved to no address`);
  const inside = addresses.find((address) => !isPublicAddress(address) && !isAllowedHost(address, allowedHosts));
  return inside === undefined ? OK : refused(`${host} resolved to ${inside}, not a public address`);
}
