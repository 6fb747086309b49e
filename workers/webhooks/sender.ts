// Sends one signed webhook message and reports the attempt (Standard Webhooks headers; the
// contract's "Webhooks" section). Retries, ordering and concurrency are the delivery worker's.
// node:http(s) directly rather than fetch: redirects must not be followed, and the address each
// connection goes to must be checked (a lookup hook), neither of which fetch lets us do.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { checkResolvedAddresses, checkWebhookUrl } from './address-policy.js';

/** The whole attempt (lookup, connect, request, response headers and body) ends by then. */
export const DEFAULT_DEADLINE_MS = 10_000;
/** At most this much of a response body is read; a longer body fails the attempt and closes the socket. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024;

export interface WebhookTarget {
  readonly url: string;
  /** The subscription's secrets (`whsec_…`), newest first: two during a rotation's 24 h, else one. */
  readonly secrets: readonly string[];
}

export interface WebhookMessage {
  /** `evt_<event id>`: the same for every retry and replay, so a receiver can drop repeats. */
  readonly id: string;
  /** The JSON body, exactly as signed and sent. */
  readonly body: string;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/**
 * Connections kept open between messages to the same host (keep-alive), one pool per worker. A
 * connection's address was checked when it was made (the lookup hook below), so reusing it sends
 * nowhere new. An idle one is closed after IDLE_CONNECTION_MS, or sooner when the receiver's
 * Keep-Alive header says so; one that failed, timed out or went over the byte cap is destroyed,
 * never reused.
 */
export class Connections {
  readonly http = new HttpAgent({ keepAlive: true, maxFreeSockets: 16, timeout: IDLE_CONNECTION_MS });
  readonly https = new HttpsAgent({ keepAlive: true, maxFreeSockets: 16, timeout: IDLE_CONNECTION_MS });
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
/** Below the 5 s most servers keep an idle connection, so that the receiver is rarely the one to close it. */
export const IDLE_CONNECTION_MS = 4_000;

/** Finds the addresses of a host name; dns.lookup (the system resolver) by default. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface SendOptions {
  /** WEBHOOK_ALLOWED_HOSTS: the only non-public hosts (names or addresses) a message may go to. */
  readonly allowedHosts: readonly string[];
  readonly deadlineMs?: number;
  readonly maxResponseBytes?: number;
  readonly resolve?: Resolver;
  /** The signing time, written as webhook-timestamp; receivers refuse one too far from their own clock. */
  readonly clock?: () => Date;
  /** Kept-alive connections to reuse; without, each message has a connection of its own. */
  readonly connections?: Connections;
}

/** One attempt, as the deliveries record it. The response body is neither kept nor returned. */
export interface AttemptOutcome {
  /** A 2xx whose whole response arrived within the deadline and the byte cap. */
  readonly ok: boolean;
  readonly statusCode?: number;
  readonly error?: string;
  readonly durationMs: number;
}

const systemResolver: Resolver = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The Standard Webhooks headers of a message. With several secrets (a rotation), one signature each,
 * space-separated in the one header, so a receiver holding either secret accepts the message.
 */
export function signedHeaders(id: string, body: string, at: Date, secrets: readonly string[]): Readonly<Record<string, string>> {
  if (secrets.length === 0) throw new TypeError('a webhook message is signed with at least one secret');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}

class AddressRefused extends Error {
  override readonly name = 'AddressRefused';
}

// Every new connection asks this for its addresses, and the
// answer is checked before any of them is connected to: a DNS answer pointing a public name at an
// internal address ends the attempt there. Node skips the hook for an IP literal, which
// checkWebhookUrl has judged already.
function guardedLookup(resolve: Resolver, allowedHosts: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    // Through a promise chain, so that a resolver that throws rather than rejects fails the attempt alike.
    Promise.resolve(hostname).then(resolve).then(
      (found) => {
        const check = checkResolvedAddresses(hostname, found.map((a) => a.address), allowedHosts);
        if (!check.ok) return callback(new AddressRefused(check.reason), '');
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable: LookupAddress[] = found.filter((a) => family === 0 || a.family === family).map((a) => ({ address: a.address, family: a.family }));
        const first = usable[0];
        if (first === undefined) return callback(Object.assign(new Error(`${hostname}: no IPv${family} address`), { code: 'ENOTFOUND' }), '');
        // With autoSelectFamily (Node's default) net asks for every address, else for one.
        return options.all ? callback(null, usable) : callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    );
  };
}

/**
 * POSTs one message to the target and reports how it went. Resolves for every outcome of the
 * exchange (refused address, timeout, connection error, any status); rejects only for a target that
 * cannot be signed for (no secret, a malformed one).
 */
export async function send(target: WebhookTarget, message: WebhookMessage, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const headers = signedHeaders(message.id, message.body, (options.clock ?? (() => new Date()))(), target.secrets);

  const check = checkWebhookUrl(target.url, options.allowedHosts);
  if (!check.ok) return { ok: false, error: `URL refused: ${check.reason}`, durationMs: elapsed() };

  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const url = new URL(target.url);
  const https = url.protocol === 'https:';
  const request = https ? httpsRequest : httpRequest;
  const connections = options.connections;

  const outcome = await new Promise<AttemptOutcome | 'stale'>((resolve) => {
    let statusCode: number | undefined;
    let settled = false;
    // One way out: whichever comes first (the response's end, the cap, the deadline, an error)
    // reports. A failure destroys the connection, so that nothing more is read or waited for; a
    // response read whole leaves it to the pool (or closes it, without one).
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error !== undefined || !connections) req.destroy();
      const ok = error === undefined && statusCode !== undefined && statusCode >= 200 && statusCode < 300;
      resolve({ ok, ...(statusCode !== undefined && { statusCode }), ...(error !== undefined && { error }), durationMs: elapsed() });
    };

    const req: ClientRequest = request(url, {
      method: 'POST',
      agent: connections ? (https ? connections.https : connections.http) : false,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(message.body)) },
      lookup: guardedLookup(options.resolve ?? systemResolver, options.allowedHosts),
    });
    const deadline = setTimeout(() => finish(`timeout: no complete answer within ${deadlineMs} ms`), deadlineMs);

    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept connection the receiver closed as this message went out (it had been idle): not the
      // receiver's answer. Sent again once, on a connection of its own.
      if (!settled && req.reusedSocket && statusCode === undefined && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
        settled = true;
        clearTimeout(deadline);
        req.destroy();
        return resolve('stale');
      }
      finish(error instanceof AddressRefused ? `address refused: ${error.message}` : error.message);
    });
    // A redirect is answered like any other status: its Location is not followed.
    req.on('response', (res: IncomingMessage) => {
      statusCode = res.statusCode;
      let bytes = 0;
      // Chunks are counted and dropped; at most one socket chunk past the cap is ever held.
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) finish(`response body over ${maxBytes} bytes`);
      });
      res.on('end', () => finish());
      res.on('error', (error) => finish(error.message));
      res.on('close', () => finish('the response was cut short'));
    });
    req.end(message.body);
  });
  if (outcome !== 'stale') return outcome;
  const { connections: _kept, ...fresh } = options;
  return send(target, message, { ...fresh, deadlineMs: Math.max(1, deadlineMs - elapsed()) });
}
