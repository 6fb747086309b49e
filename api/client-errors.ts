// Requests Node's HTTP parser refuses before Koa sees them (oversized or malformed heads, slow
// heads past the timeout) still get a problem+json answer with the headers every response carries.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_API_VERSION, versionHeaders } from './versions.js';
import { PROBLEM_BASE, PROBLEM_TITLES, type ProblemCode } from './problem.js';

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, detail]: [number, ProblemCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers-too-large', 'The request head is larger than this server accepts (16 KiB).']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request-timeout', 'The request did not arrive in time.']
          : [400, 'malformed-request', 'The request is not valid HTTP/1.1.'];
    const correlationId = randomUUID();
    const body = JSON.stringify({ type: PROBLEM_BASE + code, title: PROBLEM_TITLES[code], status, detail, correlationId });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Correlation-Id: ${correlationId}\r\n${Object.entries(versionHeaders(DEFAULT_API_VERSION)).map(([name, value]) => `${name}: ${value}\r\n`).join('')}Connection: close\r\n\r\n${body}`,
    );
  });
}
