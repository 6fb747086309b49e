// Waiting requests are capped per principal (contract: 16 at once, the next answers 429), so
// that one principal holding long-polls, SSE streams and Consistency-Token reads never takes
// every MAX_IN_FLIGHT slot from the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePosition } from '../../write-side/kernel/position.js';
import { client, startService, type TestService } from '../support/http.js';
import { receiveStock, TEST_SKUS } from '../support/seed.js';

let service: TestService;
const FAR_AHEAD = encodePosition(10_000_000n);

beforeAll(async () => {
  // A held request must stay held until the test lets it go, however slow the machine: the
  // Consistency-Token reads wait (and the request timeout, which would answer them 503, runs) ten
  // minutes, far past any run of this file; the service's stop ends their waits.
  service = await startService({ maxInFlight: 32, consistencyWaitMs: 600_000, requestTimeoutMs: 600_000 });
  await receiveStock(service.events, TEST_SKUS);
});
afterAll(() => service.stop());

interface Answer {
  status: number;
  retryAfter: string | null;
  type: string | null;
}

/** A request that waits: a long-poll, an SSE stream, or a collection read behind a far-ahead Consistency-Token. */
function waitingRequest(kind: number, token: string, signal: AbortSignal): Promise<Answer> {
  const auth = { Authorization: `Bearer ${token}` };
  const requests: Array<[string, Record<string, string>]> = [
    // 30 s, the longest a long-poll may wait: longer than the test may run (its timeout, 30 s, counts from before these start).
    ['/fulfilment-queue/changes?wait=30', {}],
    ['/fulfilment-queue/changes', { Accept: 'text/event-stream' }],
    ['/orders', { 'Consistency-Token': FAR_AHEAD }],
    ['/fulfilment-queue', { 'Consistency-Token': FAR_AHEAD }],
  ];
  const [path, headers] = requests[kind % requests.length]!;
  return fetch(service.url + path, { headers: { ...auth, ...headers }, signal }).then(async (response) => {
    const type = response.headers.get('content-type')?.startsWith('application/problem+json') ? ((await response.json()) as { type: string }).type : null;
    return { status: response.status, retryAfter: response.headers.get('retry-after'), type };
  });
}

/** A long-poll of `token` that waits a second when admitted: answers 429 at once when the principal holds all its slots. */
const probe = (token: string) => fetch(`${service.url}/fulfilment-queue/changes?wait=1`, { headers: { Authorization: `Bearer ${token}` } });

describe('waiting requests per principal', () => {
  it('holds 16 waiting requests of one principal, answers the rest 429, and never sheds another principal (MAX_IN_FLIGHT=32)', async () => {
    const greedy = await service.token({ sub: 'greedy' });
    // Its token verified once before the burst, so that each of the 40 is admitted or refused as it
    // arrives, instead of all of them awaiting the token's first verification together: a loaded
    // machine can let more than MAX_IN_FLIGHT pile up there, and shed some with 503.
    expect((await client(service, greedy)('GET', '/orders?limit=1')).status).toBe(200);
    const abort = new AbortController();
    const answers: Answer[] = [];
    // Resolves at the answer that makes 24 refusals, or at one that is neither 429 nor 200 (then the checks below say what came).
    let decided!: () => void;
    const refusedOrOdd = new Promise<void>((resolve) => (decided = resolve));
    const requests = Array.from({ length: 40 }, (_, i) =>
      waitingRequest(i, greedy, abort.signal).then(
        (answer) => {
          answers.push(answer);
          if (answers.filter((a) => a.status === 429).length >= 24 || (answer.status !== 429 && answer.status !== 200)) decided();
        },
        () => undefined,
      ),
    );
    try {
      // 40 at once: 16 wait (an SSE stream answers 200 at once and stays open), 24 are refused.
      await refusedOrOdd;
      // A refusal is given only while 16 are held, and nothing held ends before the test lets it
      // go; so a probe refused now shows that the 16 not refused are held: all 40 are decided, and
      // no 25th refusal can come (instead of waiting a while to see none come).
      const probed = await probe(greedy);
      expect(probed.status).toBe(429);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(24);
      expect(refused.every((a) => a.retryAfter === '1' && a.type === 'https://errors.orders.example/rate-limited')).toBe(true);
      // Every other answer so far is an open SSE stream; the rest still wait.
      expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 200)).toBe(true);

      // Another principal is served, its own waits included.
      const other = await service.token({ sub: 'patient' });
      const api = client(service, other);
      const served = await Promise.all([
        api('GET', '/orders'),
        api('GET', '/fulfilment-queue'),
        api('GET', '/fulfilment-queue/changes?wait=0'),
        ...Array.from({ length: 8 }, () => api('GET', '/orders?limit=1')),
      ]);
      expect(served.map((r) => r.status)).toEqual(served.map(() => 200));
      const stream = await fetch(`${service.url}/fulfilment-queue/changes`, { headers: { Authorization: `Bearer ${other}`, Accept: 'text/event-stream' }, signal: abort.signal });
      expect(stream.status).toBe(200);
    } finally {
      abort.abort();
      await Promise.all(requests);
    }
  });

  it('gives the slot back when a waiting request ends', async () => {
    const token = await service.token({ sub: 'streamer' });
    const streams = Array.from({ length: 16 }, () => new AbortController());
    try {
      for (const stream of streams) {
        const response = await fetch(`${service.url}/fulfilment-queue/changes`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal: stream.signal });
        expect(response.status).toBe(200);
      }
      const refused = await fetch(`${service.url}/fulfilment-queue/changes?wait=1`, { headers: { Authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      streams[0]!.abort();
      // Polled until the server has seen the stream close, with no deadline but the test's: then the
      // long-poll waits its second and answers 200. Every answer until then is the 429 of a full cap.
      let status = 429;
      while (status === 429) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await probe(token)).status;
      }
      expect(status).toBe(200);
    } finally {
      for (const stream of streams) stream.abort();
    }
  });
});
