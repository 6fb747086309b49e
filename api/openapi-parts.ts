// The pieces of the OpenAPI document that the frame (api/openapi.ts) and the areas' operation
// declarations share: references into components, the headers every answer carries, and the
// problem answers every operation behind the token check can give.
import { PROBLEM_BASE, type ProblemCode } from './problem.js';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const header = (description: string, schema: object = { type: 'string' }, required = false) => ({ description, required, schema });
/** On every response. */
export const commonHeaders = {
  'X-Correlation-Id': headerRef('X-Correlation-Id'),
  'Api-Version': headerRef('Api-Version'),
  Deprecation: headerRef('Deprecation'),
  Sunset: headerRef('Sunset'),
};
/** On every response the rate limit has seen (all but the operations routes, and failed token checks). */
export const rateLimitHeaders = {
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimit-Policy'),
};
export const json = (schema: object) => ({ 'application/json': { schema } });
/**
 * A problem+json response whose `type` ends in one of `codes`: the API's own (ProblemCode), or
 * the codes of an area's own rules, which its declaration's `problems` lists.
 */
export const problem = (description: string, status: number, codes: readonly (ProblemCode | (string & {}))[], extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...commonHeaders, ...rateLimitHeaders, ...extraHeaders },
  content: {
    'application/problem+json': {
      schema: { allOf: [ref('Problem')], properties: { type: { enum: codes.map((code) => PROBLEM_BASE + code) }, status: { const: status } } },
    },
  },
});
/** What any request can be answered, before a route runs: by the HTTP server, the request front, or a failure. */
export const everyRequest = {
  '408': responseRef('RequestTimeout'),
  '431': responseRef('HeadersTooLarge'),
  '500': responseRef('Internal'),
};
/** The answers of every operation behind the token check, the rate limit, the request timeout and load shedding. */
export const authProblems = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthenticated'),
  '403': responseRef('Forbidden'),
  ...everyRequest,
  '429': responseRef('RateLimited'),
  '503': responseRef('Unavailable'),
};
/** The answers of the operations routes besides their own: they need no token and are never shed. */
export const operationsProblems = { '400': responseRef('RequestRefused'), ...everyRequest };
export const idempotencyKey = { $ref: '#/components/parameters/Idempotency-Key' };
export const consistencyToken = { $ref: '#/components/parameters/Consistency-Token' };
/** The query parameters of a query schema, each referring to its property there. */
export const queryParameters = (schema: string, names: readonly string[]) =>
  names.map((name) => ({ name, in: 'query', required: false, schema: { $ref: `#/components/schemas/${schema}/properties/${name}` } }));
/** A merge-patch body was required and another was sent; Accept-Patch names the one. */
export const mergePatchOnly = () =>
  problem('unsupported-media-type: the body is not application/merge-patch+json.', 415, ['unsupported-media-type'], {
    'Accept-Patch': header('application/merge-patch+json', { type: 'string', const: 'application/merge-patch+json' }, true),
  });

export function retryAfter(required: boolean) {
  return header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }, required);
}
