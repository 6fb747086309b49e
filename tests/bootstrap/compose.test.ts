// compose.yaml names images by tags that exist. Whether they do cannot be asked offline, so this
// holds the forms their registries use: EventStoreDB's release tags carry the full version and
// the base image (24.10.0-bookworm-slim, as its container build names them), and no image floats
// on latest or a bare major. `docker-compose config` (.ci/run) checks that the file itself is valid.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const compose = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');
const images = [...compose.matchAll(/^\s*image:\s*"?([^"\s#]+)"?/gm)].map((m) => m[1]!);

/** A duration as nginx writes it (`4s`, `500ms`, `1m`; a bare number is seconds), in milliseconds. */
function nginxMs(value: string): number {
  const [, amount, unit = 's'] = /^(\d+)(ms|s|m)?$/.exec(value) ?? [];
  if (amount === undefined) throw new Error(`not an nginx duration: ${value}`);
  return Number(amount) * { ms: 1, s: 1_000, m: 60_000 }[unit as 'ms' | 's' | 'm'];
}

describe('the proxy in front of the API replicas (deploy/nginx.conf)', () => {
  it('drops an idle upstream connection before the service closes it, so that no request goes out on a closed one (a 502)', () => {
    const nginx = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
    const main = readFileSync(new URL('../../bootstrap/main.ts', import.meta.url), 'utf8');
    const upstreams = [...nginx.matchAll(/^upstream\s+\S+\s*\{([^}]*)\}/gm)].map((m) => m[1]!.replace(/#[^\n]*/g, ''));
    expect(upstreams.length).toBeGreaterThan(0);
    const service = /keepAliveTimeout:\s*([\d_]+)/.exec(main)?.[1];
    expect(service, 'keepAliveTimeout in bootstrap/main.ts').toBeDefined();
    const serviceMs = Number(service!.replaceAll('_', ''));
    for (const upstream of upstreams) {
      if (!/\bkeepalive\s+\d+;/.test(upstream)) continue; // no idle connections kept: nothing to race
      // nginx's default upstream keepalive_timeout is 60 s.
      const proxyMs = nginxMs(/\bkeepalive_timeout\s+(\S+);/.exec(upstream)?.[1] ?? '60s');
      // With a margin for the time a request takes to reach the service.
      expect(proxyMs + 500).toBeLessThanOrEqual(serviceMs);
    }
  });
});

describe('compose.yaml', () => {
  it('pins EventStoreDB to a tag of the form its registry publishes', () => {
    const eventstore = images.filter((image) => image.startsWith('eventstore/eventstore'));
    expect(eventstore.length).toBeGreaterThan(0);
    for (const image of eventstore) expect(image).toMatch(/^eventstore\/eventstore:\d+\.\d+\.\d+-(bookworm|jammy|focal)-slim$/);
  });

  it('pins every image to at least a minor version', () => {
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image, image).toMatch(/:\d+\.\d+(\.\d+)?(-[a-z0-9.-]+)?$/);
  });

  it('claims no need of a replica set for transactions or change streams, which the service does not use', () => {
    expect(compose).not.toMatch(/(transactions|change streams)[^\n]*need a replica set/i);
  });
});
