// Reads a JSON request body: media type, size limit, strict UTF-8, and JSON syntax, each refused
// with its own problem before anything else looks at the body.
import type { Context } from 'koa';
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
  if (length !== undefined && length > MAX_BODY_BYTES) throw tooLarge();

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = decoder.decode(Buffer.concat(chunks));
  } catch {
    throw new HttpProblem(400, 'malformed-json', 'The body is not valid UTF-8.');
  }
  if (text.trim() === '' && options.optional) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpProblem(400, 'malformed-json', 'The body is not valid JSON.');
  }
}

function tooLarge(): HttpProblem {
  return new HttpProblem(413, 'payload-too-large', `The body exceeds ${MAX_BODY_BYTES} bytes.`);
}
