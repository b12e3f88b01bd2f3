import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { type AppError, isAppError } from '../../../domain/shared/app-error';
import { fieldPointer } from '../../../domain/shared/field-pointer';
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
    const { status, data, message } = appErrorAnswer(error);
    sendError(req, res, status, data, message);
    return;
  }
  if (error instanceof ZodError) {
    const issues = presentIssues(error);
    sendError(req, res, 400, { code: 'validationFailed', field: fieldOf(issues), issues }, describeIssues(issues));
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

/** What the envelope of an AppError says: its status, data (the code unless codeless, then the details) and message. */
export function appErrorAnswer(error: AppError): { status: number; data: Record<string, unknown>; message: string | undefined } {
  const status = ERROR_STATUS[error.code];
  const details = withField(error.details);
  const data = CODELESS.has(error.code) ? details : { code: error.code, ...details };
  return { status, data, message: messageOf(error.code, error.details, error.message !== error.code ? error.message : undefined) };
}

type Issue = { path: string[]; message: string };

/** The field of the first issue, as a JSON pointer into the body. */
const fieldOf = (issues: readonly Issue[]): string | undefined => (issues[0] ? fieldPointer(issues[0].path) : undefined);

/**
 * Details with the field the error is about as a JSON pointer into the body: the rule's own name of
 * it (`config.url`) made a pointer (`/config/url`), else the first issue's path when there are issues.
 */
function withField(details: Record<string, unknown>): Record<string, unknown> {
  if (typeof details.field === 'string') return { ...details, field: fieldPointer(details.field) };
  const issues = Array.isArray(details.issues) ? (details.issues as Issue[]) : [];
  const first = issues[0];
  return first && Array.isArray(first.path) ? { ...details, field: fieldPointer(first.path) } : { ...details };
}

/** A validation failure says which field and what is wrong with it: the first issue, and how many more. */
export function describeIssues(issues: readonly Issue[]): string {
  const [first] = issues;
  if (!first) return MESSAGES.validationFailed!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more in data.issues)` : '';
  return `Invalid ${first.path.length > 0 ? first.path.join('.') : 'body'}: ${first.message}${more}`;
}

/**
 * The short reason of an AppError: its own message; else, for the generic codes, what the details
 * say (which field, which issue); else the code's message.
 */
function messageOf(code: AppError['code'], details: Record<string, unknown>, own: string | undefined): string | undefined {
  const issues = Array.isArray(details.issues) ? (details.issues as Issue[]) : null;
  if (code === 'validationFailed' && issues && issues.length > 0 && (own === undefined || own === MESSAGES.validationFailed)) {
    return describeIssues(issues);
  }
  if (own !== undefined) return own;
  if (code === 'invalidRequestBody' && typeof details.field === 'string') {
    return `Invalid ${details.field}${typeof details.reason === 'string' ? ` (${details.reason})` : ''}`;
  }
  return MESSAGES[code];
}

/** Unknown routes: 404 without a code, the same answer as a record that is not visible. */
export const notFoundHandler: RequestHandler = (req, res) => sendError(req, res, 404);
