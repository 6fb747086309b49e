// Routes live in the fragment (#/orders/…): the service serves one page at /admin, and nothing
// of a route ever reaches a server log.
import { useEffect, useState } from 'preact/hooks';

export function useRoute(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

export function go(...parts: string[]): void {
  location.hash = href(...parts);
}
