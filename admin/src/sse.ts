// Server-Sent Events read with fetch: EventSource cannot send an Authorization header, and the
// token must never go into the URL. eventsource-parser does the parsing; this reconnects with
// Last-Event-ID after a dropped connection, as EventSource would.
import type { EventSourceMessage } from 'eventsource-parser';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { authHeaders } from './api';

/** Follows `path` until `signal` aborts; `onError` hears why a connection ended before it retries. */
export async function follow(path: string, from: string | null, onEvent: (event: EventSourceMessage) => void, onError: (message: string) => void, signal: AbortSignal): Promise<void> {
  let last = from;
  while (!signal.aborted) {
    try {
      const response = await fetch(path, { headers: { ...authHeaders(), Accept: 'text/event-stream', ...(last ? { 'Last-Event-ID': last } : {}) }, signal });
      if (!response.ok || !response.body) {
        const problem = (await response.json().catch(() => null)) as { detail?: string } | null;
        onError(problem?.detail ?? `The service answered ${response.status}.`);
        if (response.status === 401 || response.status === 403 || response.status === 400) return;
      } else {
        const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value.id) last = value.id;
          onEvent(value);
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      onError('The live connection was lost; reconnecting.');
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
