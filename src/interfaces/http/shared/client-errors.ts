import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before Express sees them (a request line or headers over
 * the size limit, malformed HTTP) still get the error envelope: 431 for oversized headers, 400
 * otherwise. Without this, Node answered with an empty body. The request's URL is unknown here.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const statusCode = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const statusMessage = STATUS_CODES[statusCode]!;
  const body = JSON.stringify({ error: true, url: '', statusCode, statusMessage, message: statusMessage });
  socket.end(
    `HTTP/1.1 ${statusCode} ${statusMessage}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
