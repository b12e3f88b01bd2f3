import type { Request } from 'express';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { AppError } from '../../../domain/shared/app-error';
import { findUnstorableText, unstorableTextError } from '../shared/storable-text';

export interface JsonLimits {
  /** Bytes of body (after any transfer encoding; content encodings are refused). */
  readonly maxBytes: number;
  /** Levels of objects and arrays; the root object is level 1. */
  readonly maxDepth: number;
}

export interface JsonBody {
  readonly value: unknown;
  readonly bytes: number;
}

/**
 * Reads a JSON body chunk by chunk through a streaming tokenizer, so every verdict is reached as
 * soon as the bytes that decide it arrive: 413 payloadTooLarge once the byte count passes the limit
 * (at once when Content-Length says so), 422 payloadTooDeep at the first bracket that opens a level
 * too many, 422 invalidJson at the first byte that cannot continue a JSON text (or at the end, when
 * the text is incomplete). The value is assembled by the same pass (one parse, an explicit stack, no
 * recursion); nothing after the refusal is parsed. The rest of a refused body is drained unread.
 */
export function readJsonBody(req: Request, limits: JsonLimits): Promise<JsonBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.reject(refuse(req, 'payloadTooLarge'));
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return Promise.reject(refuse(req, 'invalidJson', 'Content-Encoding is not supported; send plain JSON'));

  return new Promise<JsonBody>((resolve, reject) => {
    const tokenizer = new Tokenizer();
    const parser = new TokenParser({ paths: ['$'] });
    let bytes = 0;
    let depth = 0;
    let value: unknown;
    let complete = false;
    let settled = false;

    tokenizer.onToken = (info) => {
      if (info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) {
        if (++depth > limits.maxDepth) throw new AppError('payloadTooDeep', { maxDepth: limits.maxDepth });
      } else if (info.token === TokenType.RIGHT_BRACE || info.token === TokenType.RIGHT_BRACKET) {
        depth--;
      }
      parser.write(info);
    };
    parser.onValue = (info) => {
      value = info.value;
    };
    parser.onEnd = () => {
      complete = true;
    };

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error instanceof AppError ? refuse(req, error.code, undefined, error.details) : refuse(req, 'invalidJson'));
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) return fail(new AppError('payloadTooLarge'));
      try {
        tokenizer.write(chunk);
      } catch (error) {
        fail(error);
      }
    };
    const onEnd = () => {
      if (settled) return;
      try {
        if (!tokenizer.isEnded) tokenizer.end();
      } catch (error) {
        return fail(error);
      }
      if (!complete) return fail(new AppError('invalidJson'));
      settled = true;
      cleanup();
      // The same refusal as bodies the host parses: text PostgreSQL cannot keep (storable-text.ts).
      const unstorable = findUnstorableText(value);
      if (unstorable) reject(unstorableTextError(unstorable, 'request body'));
      else resolve({ value, bytes });
    };
    const onError = (error: unknown) => fail(error);
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** A refusal; the unread rest of the body is discarded so the connection can answer. */
function refuse(
  req: Request,
  code: 'payloadTooLarge' | 'payloadTooDeep' | 'invalidJson' | AppError['code'],
  message?: string,
  details: Record<string, unknown> = {},
): AppError {
  req.resume();
  return new AppError(code, details, message);
}

/**
 * Why a whole body in hand is not an acceptable JSON text, as readJsonBody would have found it
 * streaming (the first verdict in the bytes' order: payloadTooDeep at the first bracket a level too
 * deep, invalidJson at the first byte that cannot continue the text or at an incomplete end). For
 * the buffered reader, once `JSON.parse` has refused the text or the depth check found it too deep.
 */
export function jsonRefusal(body: Buffer, limits: JsonLimits): AppError {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ['$'] });
  let depth = 0;
  tokenizer.onToken = (info) => {
    if (info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) {
      if (++depth > limits.maxDepth) throw new AppError('payloadTooDeep', { maxDepth: limits.maxDepth });
    } else if (info.token === TokenType.RIGHT_BRACE || info.token === TokenType.RIGHT_BRACKET) {
      depth--;
    }
    parser.write(info);
  };
  try {
    tokenizer.write(body);
    if (!tokenizer.isEnded) tokenizer.end();
  } catch (error) {
    return error instanceof AppError ? error : new AppError('invalidJson');
  }
  return new AppError('invalidJson');
}
