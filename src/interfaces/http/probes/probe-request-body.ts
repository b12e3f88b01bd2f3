import type { Request, Response } from 'express';
import { AppError } from '../../../domain/shared/app-error';
import type { ErrorCode } from '../../../domain/shared/error-codes';

/** Most bytes of a request body (a batch of results). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The body read whole under its limit and parsed once (no streaming parser: batches are large and
 * well-formed). A body refused before it is read whole (not JSON, too large) closes the connection
 * after the answer, so what is left of it is never read as the next request.
 */
export async function jsonBodyOf(req: Request, res: Response): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (req.headers['transfer-encoding'] === undefined && !(declared > 0)) return {};
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) refuseUnread(res, 'unsupportedMediaType');
  if (declared > MAX_BODY_BYTES) refuseUnread(res, 'payloadTooLarge');
  const text = await textUpTo(req, MAX_BODY_BYTES);
  if (text === null) refuseUnread(res, 'payloadTooLarge');
  if (text.length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalidRequestBody');
  }
}

function refuseUnread(res: Response, code: ErrorCode): never {
  res.setHeader('connection', 'close');
  throw new AppError(code);
}

/** The body as text, or null as soon as it passes `max` bytes (the rest is let through unread; the connection closes after the answer). */
function textUpTo(req: Request, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= max) return void chunks.push(chunk);
      done();
      resolve(null);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, bytes).toString('utf8'));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => onError(new Error('the client went away before sending the whole body'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
