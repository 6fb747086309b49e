// The API client: openapi-fetch over the types generated from the served OpenAPI document
// (generated/api.ts), so a call the contract does not describe does not compile.
import createClient from 'openapi-fetch';
import { API_VERSION, type components, type paths } from './generated/api';
import { storedToken } from './session';

export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];

let lastWrite: string | null = null;
let onUnauthenticated: (() => void) | null = null;
// A refusal that came before anyone listened: the first page is asked for before the app is drawn.
let refusedUnheard = false;

/** Called when the service refuses the token (expired, or the account disabled), at once for a refusal that came before. */
export function whenUnauthenticated(callback: () => void): void {
  onUnauthenticated = callback;
  if (refusedUnheard) {
    refusedUnheard = false;
    callback();
  }
}

/** The Consistency-Token of this tab's last write: a collection read sends it to include that write. */
export function consistency(): { 'Consistency-Token'?: string } {
  return lastWrite === null ? {} : { 'Consistency-Token': lastWrite };
}

export function authHeaders(): Record<string, string> {
  const token = storedToken();
  return { 'Api-Version': API_VERSION, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

export const api = createClient<paths>({ baseUrl: location.origin });
api.use({
  onRequest({ request }) {
    for (const [name, value] of Object.entries(authHeaders())) request.headers.set(name, value);
    return request;
  },
  onResponse({ request, response }) {
    noteResponse(request.method, response);
    return response;
  },
});

/** Keeps a write's Consistency-Token, and signs out when the token is refused. */
export function noteResponse(method: string, response: Response): void {
  if (method !== 'GET' && method !== 'HEAD') {
    const token = response.headers.get('Consistency-Token');
    if (token) lastWrite = token;
  }
  if (response.status === 401 && !response.url.endsWith('/auth/login')) {
    if (onUnauthenticated) onUnauthenticated();
    else refusedUnheard = true;
  }
}

/** What a refused request says to a person: the problem's detail, never a bare status. */
export function describe(problem: unknown, response?: Response): string {
  const body = problem as Partial<Problem> | undefined;
  const detail = body?.detail ?? body?.title;
  if (detail) {
    const pointers = (body?.errors ?? []).map((e) => `${e.pointer}: ${e.message}`);
    return pointers.length > 0 ? `${detail} (${pointers.join('; ')})` : detail;
  }
  return response ? `The service answered ${response.status} ${response.statusText}.` : 'The service could not be reached.';
}

export function newKey(): string {
  return crypto.randomUUID();
}
