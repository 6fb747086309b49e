// Requests to the routes HTTP-CONTRACT.md (2026-12-01) adds whose implementation is not in the
// served document yet: stock. Same headers and handling as the generated client; each moves to it
// once its route is served.
import { authHeaders, noteResponse, type Problem } from './api';

export interface Result<T> {
  readonly data?: T;
  readonly error?: Problem;
  readonly response: Response;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export async function request<T>(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; contentType?: string } = {}): Promise<Result<T>> {
  const headers: Record<string, string> = { ...authHeaders(), ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  const response = await fetch(path, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  noteResponse(method, response);
  const text = response.status === 204 ? '' : await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  return response.ok ? { data: body as T, response } : { error: body as Problem, response };
}

export const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};
