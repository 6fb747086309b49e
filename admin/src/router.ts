// Routes live in the fragment (#/orders/…?status=paid): the service serves one page at /admin, and
// nothing of a route ever reaches a server log. A screen's filter is the query after the path, so a
// figure of the home screen can link to a list filtered so, and a filtered list can be reloaded.
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  readonly parts: string[];
  readonly query: URLSearchParams;
  /** The whole fragment: a screen is opened anew when it changes. */
  readonly key: string;
}

export function parseRoute(hash: string): Route {
  const fragment = hash.replace(/^#\/?/, '');
  const mark = fragment.indexOf('?');
  const path = mark < 0 ? fragment : fragment.slice(0, mark);
  return {
    parts: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(mark < 0 ? '' : fragment.slice(mark + 1)),
    key: fragment,
  };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return parseRoute(hash);
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

/** A route with a query; parameters without a value are left out. */
export function hrefWith(parts: readonly string[], query: Record<string, string | undefined> | URLSearchParams): string {
  const search = new URLSearchParams(query instanceof URLSearchParams ? query : Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
  const text = search.toString();
  return href(...parts) + (text ? `?${text}` : '');
}

export function go(...parts: string[]): void {
  location.hash = href(...parts);
}

/**
 * Writes a screen's filter into the address without opening the screen again (replaceState fires
 * no hashchange): a reload, or the link copied, shows the same list.
 */
export function keepQuery(query: Record<string, string | undefined>): void {
  history.replaceState(history.state, '', hrefWith(parseRoute(location.hash).parts, query));
}
