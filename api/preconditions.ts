// Conditional requests (RFC 9110 §13) on resources whose ETag is "<revision>": orders and products.
import { validationFailed } from './problem.js';

/** The revision an If-Match header pins; undefined when there is none (or `*`). */
export function ifMatchRevision(header: string): number | undefined {
  if (header === '' || header === '*') return undefined;
  const match = /^"(\d{1,15})"$/.exec(header.trim());
  if (!match) throw validationFailed([{ pointer: '/headers/if-match', message: 'must be one ETag of this resource, such as "3"' }]);
  return Number(match[1]);
}

/** Whether an If-None-Match header names `etag` (or `*`). */
export function matchesNoneMatch(header: string, etag: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
