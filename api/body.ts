// Reads a JSON request body: media type, size limit, strict UTF-8, and JSON syntax, each refused
// with its own problem before anything else looks at the body.
import type { Context } from 'koa';
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import { HttpProblem, validationFailed } from './problem.js';

export const MAX_BODY_BYTES = 64 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

export interface BodyOptions {
  /** Accepted media types, e.g. application/json. */
  readonly mediaTypes: readonly string[];
  /** When true, a request without a body reads as undefined. */
  readonly optional?: boolean;
  /** Extra headers on a 415, such as Accept-Patch. */
  readonly unsupportedHeaders?: Readonly<Record<string, string>>;
}

export async function readJson(ctx: Context, options: BodyOptions): Promise<unknown> {
  const length = ctx.request.length;
  const chunked = ctx.get('Transfer-Encoding') !== '';
  if (!chunked && (length === undefined || length === 0)) {
    if (options.optional) return undefined;
    throw validationFailed([{ pointer: '', message: 'a JSON body is required' }]);
  }
  const contentType = ctx.get('Content-Type');
  // Nearly every client sends the bare media type: accepted as it is, without parsing.
  if (!options.mediaTypes.includes(contentType)) refuseOtherMediaTypes(contentType, options);
  if (length !== undefined && length > MAX_BODY_BYTES) throw tooLarge();

  const bytes = await bodyBytes(ctx.req);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new HttpProblem(400, 'malformed-json', 'The body is not valid UTF-8.');
  }
  if (options.optional && text.trim() === '') return undefined;
  let value: unknown;
  try {
    // Without a reviver: V8 parses far faster without one, and the numbers are checked below.
    value = JSON.parse(text);
  } catch {
    throw new HttpProblem(400, 'malformed-json', 'The body is not valid JSON.');
  }
  // JSON.parse keeps the last of two equal members and rounds big integers silently: either
  // would make the request mean something other than what was sent.
  if (holdsUnsafeInteger(value)) throw validationFailed([{ pointer: '', message: 'holds an integer beyond ±(2^53 − 1), which cannot be kept exactly' }]);
  const repeated = repeatedMember(text);
  if (repeated !== null) throw validationFailed([{ pointer: repeated.pointer, message: `repeats the member ${JSON.stringify(repeated.name)}` }]);
  return value;
}

/**
 * The request's body, read to its end. Past MAX_BODY_BYTES it is refused (413) and the request
 * ended, its rest unread; a request that fails or closes before its end fails with the stream's
 * error. Listened for rather than iterated: an async iterator costs a promise and a generator step
 * per chunk, and a body nearly always comes in one. The listeners stay until the request is
 * dropped (it ends here), and are passed inline: tsx names a closure held in a variable on every call.
 */
function bodyBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return; // refused already
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      // Ended as Node's own stream helpers (and async iteration) end a server request early:
      // detached from its socket first, so that the 413 still goes out on that socket.
      (req as { socket: unknown }).socket = null;
      req.destroy();
      reject(tooLarge());
    });
    finished(req, { writable: false }, (error) => {
      if (size > MAX_BODY_BYTES) return;
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
  });
}

/** Refuses (415) a Content-Type that is not one of the media types, or names a charset other than UTF-8. */
function refuseOtherMediaTypes(contentType: string, options: BodyOptions): void {
  const [mediaType = '', ...params] = contentType.split(';').map((part) => part.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (!options.mediaTypes.includes(mediaType) || (charset !== undefined && charset !== 'utf-8')) {
    throw new HttpProblem(
      415,
      'unsupported-media-type',
      `Send the body as ${options.mediaTypes.join(' or ')} in UTF-8.`,
      {},
      options.unsupportedHeaders ?? {},
    );
  }
}

/** Whether a parsed JSON value holds an integer that a double cannot keep exactly. */
function holdsUnsafeInteger(value: unknown): boolean {
  // With a stack of its own: a body may nest deeper than the call stack reaches.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'number') {
      if (Number.isInteger(next) && !Number.isSafeInteger(next)) return true;
    } else if (next !== null && typeof next === 'object') {
      if (Array.isArray(next)) for (const element of next) pending.push(element);
      // A parsed object's members are all its own and enumerable (__proto__ included): no array of them is made.
      else for (const name in next) pending.push((next as Record<string, unknown>)[name]);
    }
  }
  return false;
}

/** An open container of the text: an object's member names so far, and the last, or an array's element index. */
interface Frame {
  readonly names: Set<string> | null;
  expectName: boolean;
  last: string;
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The first object member named twice in (valid) JSON text, with the pointer of its object. One
 * pass over the char codes; a string is skipped to its closing quote at once, and a name is decoded
 * only when it holds an escape. The pointer is built only for the repeat: until its object closes,
 * every enclosing container stays at the member or element holding it.
 */
export function repeatedMember(text: string): { pointer: string; name: string } | null {
  const frames: Frame[] = [];
  let top: Frame | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (top?.names && top.expectName) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.names.has(name)) return { pointer: pointerOf(frames), name };
        top.names.add(name);
        top.last = name;
        top.expectName = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      top = { names: c === 0x7b ? new Set() : null, expectName: c === 0x7b, last: '', index: 0 };
      frames.push(top);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      top = frames[frames.length - 1];
    } else if (c === 0x2c /* , */ && top) {
      if (top.names) top.expectName = true;
      else top.index++;
    }
  }
  return null;
}

/**
 * The index of the quote that closes the string opening at `start`: the first not escaped by an
 * odd run of backslashes; the text's end when there is none (never in valid JSON), so that the scan ends.
 */
function closingQuote(text: string, start: number): number {
  for (let end = text.indexOf('"', start + 1); ; end = text.indexOf('"', end + 1)) {
    if (end === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

/** The JSON pointer of the innermost open container. */
function pointerOf(frames: readonly Frame[]): string {
  let pointer = '';
  for (let k = 0; k < frames.length - 1; k++) {
    const frame = frames[k]!;
    pointer += `/${frame.names ? frame.last.replace(/~/g, '~0').replace(/\//g, '~1') : frame.index}`;
  }
  return pointer;
}

function tooLarge(): HttpProblem {
  return new HttpProblem(413, 'payload-too-large', `The body exceeds ${MAX_BODY_BYTES} bytes.`);
}
