// Who is signed in. The token lives in sessionStorage (this tab only, gone when it closes): never
// in a URL, never logged. Its claims are read only to choose the screens; the service checks it.
const KEY = 'order-service.admin.token';

export interface Principal {
  readonly sub: string;
  readonly scopes: ReadonlySet<string>;
  /** Seconds since the epoch. */
  readonly exp: number;
  /** A customer's own token (its customer_id claim): the lists of the whole store, and the figures, are not for it. */
  readonly customer: boolean;
}

export function storedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function keepToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}

/** The claims of a JWT, or null when it is not one. */
export function principalOf(token: string): Principal | null {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as { sub?: unknown; scope?: unknown; exp?: unknown; customer_id?: unknown };
    if (typeof claims.sub !== 'string') return null;
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
    return { sub: claims.sub, scopes: new Set(scopes), exp: typeof claims.exp === 'number' ? claims.exp : Infinity, customer: typeof claims.customer_id === 'string' };
  } catch {
    return null;
  }
}
