// Small pieces every screen uses.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describe } from './api';

// Money, numbers and dates in the browser's locale (undefined: the locale it runs in), each
// formatter made once: building one costs more than drawing the row it is used in.
const formats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formats.set(currency, format);
  }
  return format;
}

/** How many minor units a currency's major unit has (2 for EUR, 0 for JPY, 3 for BHD). */
export const minorDigits = (currency: string): number => currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;

/** Minor units in their currency's own number of decimals, as the browser's locale writes them (1999 EUR = €19.99, or 19,99 €). */
export const money = (minor: number, currency: string): string => currencyFormat(currency).format(minor / 10 ** minorDigits(currency));

let numbers: Intl.NumberFormat | undefined;
/** A count as the browser's locale writes it (1,234 or 1.234). */
export const count = (n: number) => (numbers ??= new Intl.NumberFormat()).format(n);

// The fields are named rather than given as dateStyle 'medium' and timeStyle 'short', which read
// the same but cost V8 about 7 ms more to build, on the way to the first page drawn.
const dates = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
export const when = (iso: string | null | undefined) => (iso ? dates.format(new Date(iso)) : '—');
// With the seconds, for what happens seconds apart (a webhook's attempts); built when first used,
// not on the way to the first page.
let instants: Intl.DateTimeFormat | undefined;
export const instant = (iso: string | null | undefined) =>
  iso ? (instants ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })).format(new Date(iso)) : '—';

let days: Intl.DateTimeFormat | undefined;
/** A UTC day (YYYY-MM-DD, as GET /summary counts them) as the browser's locale writes a day of the month ("5 Jan", "Jan 5"). */
export const day = (date: string) => (days ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' })).format(Date.parse(`${date}T00:00:00Z`));

let relative: Intl.RelativeTimeFormat | undefined;
/** How long ago, in the largest whole unit that fits ("5 minutes ago", "vor 2 Stunden"). */
export function ago(seconds: number): string {
  relative ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (seconds < 60) return relative.format(-Math.max(0, Math.floor(seconds)), 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  return relative.format(-Math.floor(seconds / 86_400), 'day');
}

export function Status({ value }: { value: string }) {
  return <span class={`status status-${value}`}>{value}</span>;
}

/** A refusal, said in the problem's own words; announced to screen readers. */
export function Refusal({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="refusal" role="alert">
      {message}
    </p>
  );
}

/**
 * What an empty list says: why it is empty and what to do next (a link or an action among the
 * children). A list that is empty because of its filter says so, and offers to clear it.
 */
export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

export function Notice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="notice" role="status">
      {message}
    </p>
  );
}

/** A table that scrolls sideways on a narrow screen; the region takes focus so the keyboard can scroll it. */
export function Scroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** The heading of a screen, focused when the screen opens so that a screen reader announces it. */
export function Title({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/** Cursor paging: the cursors of the pages seen so far, so that "Previous" goes back exactly. */
export function useCursors() {
  const [stack, setStack] = useState<Array<string | undefined>>([undefined]);
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor: string) => setStack([...stack, cursor]),
    previous: () => setStack(stack.slice(0, -1)),
    reset: () => setStack([undefined]),
  };
}

/** Pages on from the page shown; not while another is loading (`loading`): the cursor shown is the old query's, which the new one would refuse. */
export function Pager({ cursors, nextCursor, loading }: { cursors: ReturnType<typeof useCursors>; nextCursor: string | null | undefined; loading: boolean }) {
  return (
    <nav class="pager" aria-label="Pages" aria-busy={loading}>
      <button type="button" disabled={loading || cursors.page === 1} onClick={cursors.previous}>
        Previous page
      </button>
      <span>Page {cursors.page}</span>
      <button type="button" disabled={loading || !nextCursor} onClick={() => nextCursor && cursors.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}

export function Field({ label, children, hint }: { label: string; children: ComponentChildren; hint?: string }) {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
      {hint ? <small>{hint}</small> : null}
    </label>
  );
}

/** The value of a named field of the form that was submitted. */
export function formValue(event: Event, name: string): string {
  const form = event.currentTarget as HTMLFormElement;
  const element = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  return element?.value.trim() ?? '';
}

/** Minor units as the major-unit figure an input shows (1299 EUR = "12.99"). */
export const toMajor = (minor: number, currency: string) => (minor / 10 ** minorDigits(currency)).toFixed(minorDigits(currency));
/** What a person typed in major units, in minor units ("12.99" EUR = 1299). */
export const toMinor = (major: string, currency: string) => Math.round(Number(major) * 10 ** minorDigits(currency));

/** A modal confirmation (the native dialog: it keeps the focus inside and Escape closes it). */
export function Confirm({ question, confirm, onConfirm, onCancel }: { question: string; confirm: string; onConfirm: () => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="confirm-question" onClose={onCancel}>
      <p id="confirm-question">{question}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" class="secondary" onClick={() => ref.current?.close()}>
          Keep
        </button>
      </div>
    </dialog>
  );
}

/**
 * A collection's page for the screen's filter and cursor, asked for again whenever `deps` change
 * (a filter, the cursor, a reload after a write); a refused request is said through `refuse`.
 */
/**
 * A page of a collection, loaded again whenever `deps` change; `loading` until the answer to the
 * latest deps is in. The page shown meanwhile is the last one answered, kept so that the screen
 * does not flash empty; its cursors belong to the query it answered, not to the new one.
 */
export function usePage<T>(load: () => Promise<{ data?: T; error?: unknown; response: Response }>, deps: readonly unknown[], refuse: (message: string) => void): { page: T | null; loading: boolean } {
  const [shown, setShown] = useState<{ page: T | null; deps: readonly unknown[] } | null>(null);
  useEffect(() => {
    // Only the latest request's answer is shown: an earlier one may come after it.
    let current = true;
    void load().then(({ data, error, response }) => {
      if (!current) return;
      setShown({ page: data ?? null, deps });
      if (!data) refuse(describe(error, response));
    });
    return () => void (current = false);
  }, deps);
  return { page: shown?.page ?? null, loading: !sameDeps(shown?.deps ?? null, deps) };
}

/** Whether a page answered these deps (a hook's, compared as Preact compares them); null: none yet. */
export function sameDeps(answered: readonly unknown[] | null, deps: readonly unknown[]): boolean {
  return answered !== null && answered.length === deps.length && answered.every((value, i) => Object.is(value, deps[i]));
}
