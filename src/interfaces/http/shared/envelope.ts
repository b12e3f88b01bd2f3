import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';

/** The spec's error envelope, for every non-2xx answer. */
export interface ErrorEnvelope {
  error: true;
  url: string;
  statusCode: number;
  statusMessage: string;
  message: string;
  data?: Record<string, unknown>;
}

/** The envelope's body for a failed request to `url`. */
export function errorEnvelope(url: string, statusCode: number, data?: Record<string, unknown>, message?: string): ErrorEnvelope {
  const statusMessage = message ?? STATUS_CODES[statusCode] ?? 'Error';
  const body: ErrorEnvelope = { error: true, url, statusCode, statusMessage, message: statusMessage };
  if (data && Object.keys(data).length > 0) body.data = data;
  return body;
}

export function sendError(req: Request, res: Response, statusCode: number, data?: Record<string, unknown>, message?: string): void {
  const body = errorEnvelope(req.originalUrl, statusCode, data, message);
  const retryAfter = data?.retryAfter;
  if ((statusCode === 429 || statusCode === 503) && typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  res.status(statusCode).json(body);
}
