// compose.yaml names images by tags that exist. Whether they do cannot be asked offline, so this
// holds the forms their registries use: EventStoreDB's tags carry the full version and the base
// image (24.10.0-bookworm-slim; "24.10" alone is no tag), and no image floats on latest or a
// bare major. `docker-compose config` (.ci/run) checks that the file itself is valid.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const compose = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');
const images = [...compose.matchAll(/^\s*image:\s*"?([^"\s#]+)"?/gm)].map((m) => m[1]!);

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
