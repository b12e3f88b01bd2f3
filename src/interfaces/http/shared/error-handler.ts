import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { isAppError } from '../../../domain/shared/app-error';
import { CODELESS, ERROR_STATUS } from './error-statuses';
import { MESSAGES } from './messages';
import { sendError } from './envelope';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Zod issues as the client sees them: where, what, and zod's own code. */
export const presentIssues = (error: ZodError) =>
  error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message, code: issue.code }));

/**
 * Renders every failure in the spec's envelope: AppErrors through the one status table, schema
 * failures as 400 validationFailed with the issues, malformed JSON as 400 invalidRequestBody, and
 * anything else as a 500 that says nothing of its cause (which is logged with the request id).
 */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) return;
  if (isAppError(error)) {
    const status = ERROR_STATUS[error.code];
    const data = CODELESS.has(error.code) ? { ...error.details } : { code: error.code, ...error.details };
    sendError(req, res, status, data, error.message !== error.code ? error.message : MESSAGES[error.code]);
    return;
  }
  if (error instanceof ZodError) {
    sendError(req, res, 400, { code: 'validationFailed', issues: presentIssues(error) }, MESSAGES.validationFailed);
    return;
  }
  const parserError = error as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    sendError(req, res, 400, { code: 'invalidRequestBody' }, MESSAGES.invalidRequestBody);
    return;
  }
  if (parserError?.type === 'entity.too.large') {
    sendError(req, res, 413, { code: 'payloadTooLarge' });
    return;
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    sendError(req, res, 415, { code: 'invalidRequestBody' }, 'Unsupported body encoding');
    return;
  }
  req.log?.error({ err: error }, 'unhandled error');
  sendError(req, res, 500);
};

/** Unknown routes: 404 without a code, the same answer as a record that is not visible. */
export const notFoundHandler: RequestHandler = (req, res) => sendError(req, res, 404);
