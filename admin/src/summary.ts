// The home screen's figures, followed live with GET /summary's long-poll: each answer's ETag is sent
// back in If-None-Match with wait=30, which the service answers as soon as a figure changes (200)
// or after 30 s (304, then it is asked again at once). Nothing is asked on a timer: a quiet store
// costs one request every 30 s. After a failure it waits a few seconds, longer each time (up to
// 30 s), before asking again; it stops when the screen is left (its AbortController).
import { useEffect, useState } from 'preact/hooks';
import { describe, type Schemas } from './api';
import { summary, takeFirstSummary } from './first-page';

export type StoreSummary = Schemas['StoreSummary'];
type Answer = Awaited<ReturnType<typeof summary>>;

export type Following =
  | { readonly state: 'connecting' }
  | { readonly state: 'live' }
  | { readonly state: 'retrying'; readonly message: string; readonly seconds: number }
  /** Refused (401, 403): asking again would be refused again. */
  | { readonly state: 'refused'; readonly message: string };

export interface Followed {
  readonly summary: StoreSummary | null;
  /** Date.now() when the figures came: their ages have grown since by the time passed. */
  readonly receivedAt: number;
  readonly following: Following;
}

const BACKOFF_MS = [2_000, 5_000, 10_000, 30_000];
/** After an answer without an ETag there is nothing to wait on: asked again after this, not at once. */
const WITHOUT_ETAG_MS = 30_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function useSummary(): Followed {
  // The figures asked for at the app's start (first-page.ts), when this is the screen it opened on.
  const [first] = useState(takeFirstSummary);
  const inAlready = first !== null && !(first instanceof Promise) && first.data ? first : null;
  const [followed, setFollowed] = useState<Followed>({
    summary: (inAlready?.data as StoreSummary | undefined) ?? null,
    receivedAt: Date.now(),
    following: inAlready ? { state: 'live' } : { state: 'connecting' },
  });

  useEffect(() => {
    const stop = new AbortController();
    const { signal } = stop;
    const set = (change: Partial<Followed>) => setFollowed((was) => ({ ...was, ...change }));
    void (async () => {
      let etag: string | null = null;
      let failures = 0;
      let pending = first;
      while (!signal.aborted) {
        const answer: Answer | null = await Promise.resolve(pending ?? summary(etag, signal)).catch(() => null);
        pending = null;
        if (signal.aborted) return;
        const status = answer?.response.status ?? 0;
        if (answer && status === 200 && answer.data) {
          etag = answer.response.headers.get('ETag');
          failures = 0;
          set({ summary: answer.data as StoreSummary, receivedAt: Date.now(), following: { state: 'live' } });
          if (!etag) await sleep(WITHOUT_ETAG_MS, signal);
        } else if (status === 304) {
          failures = 0;
          set({ following: { state: 'live' } });
        } else if (answer && (status === 401 || status === 403)) {
          return set({ following: { state: 'refused', message: describe(answer.error, answer.response) } });
        } else {
          const wait = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]!;
          const message = answer ? describe(answer.error, answer.response) : 'The service could not be reached.';
          set({ following: { state: 'retrying', message, seconds: wait / 1000 } });
          await sleep(wait, signal);
        }
      }
    })();
    return () => stop.abort();
  }, []);

  return followed;
}
