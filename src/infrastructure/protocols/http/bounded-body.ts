import type { IncomingMessage } from 'node:http';

export interface BodyLimits {
  /** Bytes of the body kept (0: none, the body is only counted). */
  readonly keepBodyBytes: number;
  /** Past this many bytes the response is destroyed and the body counted so far answers. */
  readonly countLimit: number;
}

export interface ReadBody {
  readonly bodyBytes: number;
  /** The first `keepBodyBytes` bytes (or a little more: whole chunks), or null when none are kept. */
  readonly body: Buffer | null;
}

/**
 * Reads a response's body as a check or a delivery needs it: counts every byte, keeps the first
 * `keepBodyBytes`, and stops reading (destroying the response) past `countLimit`, so a huge or
 * endless body costs neither memory nor time. `done` is called once, at the end or at the limit;
 * `failed` if the response fails first.
 */
export function readBoundedBody(
  res: IncomingMessage,
  limits: BodyLimits,
  done: (read: ReadBody) => void,
  failed: (error: Error) => void,
): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let bodyBytes = 0;
  let settled = false;
  const finish = () => {
    if (settled) return;
    settled = true;
    done({ bodyBytes, body: limits.keepBodyBytes > 0 ? Buffer.concat(chunks) : null });
  };
  res.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length;
    if (kept < limits.keepBodyBytes) {
      chunks.push(chunk);
      kept += chunk.length;
    }
    if (bodyBytes > limits.countLimit) {
      res.destroy();
      finish();
    }
  });
  res.once('end', finish);
  res.on('error', (error) => {
    if (settled) return;
    settled = true;
    failed(error);
  });
}
