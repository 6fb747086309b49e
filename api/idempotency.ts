// The HTTP side of idempotency: the Idempotency-Key header, the request fingerprint, and the
// in-flight guard. Taking effect at most once, for one request per key, is the write side's job
// (write-side/kernel/idempotency.ts).
import { hash } from 'node:crypto';
import type { Context } from 'koa';
import type { Idempotent, IdempotencyRequest } from '../write-side/kernel/idempotency.js';
import type { WriteContext } from '../write-side/kernel/write-context.js';
import { readJson } from './body.js';
import { writeContext } from './middleware/context.js';
import { HttpProblem } from './problem.js';
import { DEPRECATED_API_VERSION } from './versions.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

export function idempotencyKey(ctx: Context): string {
  const key = ctx.get('Idempotency-Key');
  if (!KEY.test(key)) {
    throw new HttpProblem(400, 'idempotency-key-missing', 'This request needs an Idempotency-Key header of 1 to 255 visible ASCII characters.');
  }
  return key;
}

/**
 * The request a key stands for. Under 2026-11-01 a key is its principal's per target (the same
 * key on another order is another key); under 2026-12-01, one request across every operation.
 */
export function idempotencyRequest(ctx: Context, key: string, fingerprint: string): IdempotencyRequest {
  return { key, fingerprint, per: ctx.state.apiVersion === DEPRECATED_API_VERSION ? 'target' : 'request' };
}

/** Same method, path and JSON value (whatever the key order or white space) → same fingerprint. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return hash('sha256', `${method} ${path}\n${canonicalJson(body)}`, 'base64url');
}

/**
 * The value as JSON with every object's members sorted by name (UTF-16 code units) and no white
 * space. Fingerprints are stored with the requests they stand for, so this text must never change
 * (tests/api/idempotency.test.ts pins it). Built as one string, with JSON.stringify called only
 * for the strings that need escaping: this runs on every keyed request.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return JSON.stringify(value) ?? 'null';
  }
  if (value === null) return 'null';
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${text}]`;
  }
  const names = Object.keys(value).sort();
  text = '{';
  for (let i = 0; i < names.length; i++) text += `${i === 0 ? '' : ','}${quoted(names[i]!)}:${canonicalJson((value as Record<string, unknown>)[names[i]!])}`;
  return `${text}}`;
}

/** Text JSON.stringify would leave as it is between its quotes: no quote, backslash, control character or lone surrogate. */
const VERBATIM = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

function quoted(text: string): string {
  return VERBATIM.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * Requests that share a principal and key run one at a time in this process. A repeat that
 * arrives while the first is running waits for it (up to `waitMs`) and then replays its
 * outcome; one that would wait longer is told 409 idempotency-key-in-use.
 */
export class InFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly waitMs = 2000) {}

  async run<T>(principal: string, key: string, work: () => Promise<T>): Promise<T> {
    const id = `${principal}\u0000${key}`;
    const deadline = Date.now() + this.waitMs;
    for (let current = this.running.get(id); current; current = this.running.get(id)) {
      const left = deadline - Date.now();
      const done = await Promise.race([
        current.then(() => true, () => true),
        new Promise<false>((resolve) => setTimeout(resolve, Math.max(left, 0), false).unref()),
      ]);
      if (!done) {
        throw new HttpProblem(409, 'idempotency-key-in-use', 'A request with this Idempotency-Key is still being processed; retry shortly.', {}, { 'Retry-After': '1' });
      }
    }
    const promise = work();
    this.running.set(id, promise);
    try {
      return await promise;
    } finally {
      if (this.running.get(id) === promise) this.running.delete(id);
    }
  }
}

/** A keyed POST's own parts; keyedPost does the steps every one of them takes. */
export interface KeyedPost<Input, Target, Result> {
  /** The body, validated (and normalised); a 400 here comes before the path's. */
  readonly validate: (body: unknown) => Input;
  /** What the path names (an order id, a SKU), checked after the body. */
  readonly target: (ctx: Context) => Target;
  /** The path the fingerprint names: the resource's own spelling, whatever the case of the request. */
  readonly path: (target: Target) => string;
  /** What of the body the fingerprint covers; all of it unless said. */
  readonly fingerprinted?: (input: Input, body: unknown) => unknown;
  /**
   * Under 2026-11-01 a key of the operations that existed then (orders and their payments and
   * shipments, exports) stood for one request per target; the others' keys never did.
   */
  readonly perTargetUnderOldVersion?: true;
  readonly run: (input: Input, target: Target, context: WriteContext & Idempotent) => Promise<Result>;
  /** The Location of what the request created. */
  readonly location?: (result: NonNullable<Result>) => string;
}

/**
 * The steps of every keyed POST, in this order: the Idempotency-Key, the JSON body, its
 * validation, the path's target, the fingerprint, one run per principal and key at a time, then
 * Location and Idempotent-Replayed. What the result is answered with is the caller's.
 */
export async function keyedPost<Input, Target, Result extends { readonly replayed?: boolean } | null>(
  ctx: Context,
  inFlight: InFlight,
  post: KeyedPost<Input, Target, Result>,
): Promise<Result> {
  const key = idempotencyKey(ctx);
  const body = await readJson(ctx, { mediaTypes: JSON_TYPES });
  const input = post.validate(body);
  const target = post.target(ctx);
  const print = fingerprint('POST', post.path(target), post.fingerprinted ? post.fingerprinted(input, body) : body);
  const idempotency = post.perTargetUnderOldVersion ? idempotencyRequest(ctx, key, print) : { key, fingerprint: print };
  const result = await inFlight.run(ctx.state.principal.sub, key, () => post.run(input, target, { ...writeContext(ctx), idempotency }));
  if (result !== null && post.location) ctx.set('Location', post.location(result));
  if (result?.replayed) ctx.set('Idempotent-Replayed', 'true');
  return result;
}

const JSON_TYPES = ['application/json'];
