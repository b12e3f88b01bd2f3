import type { Request, Response } from 'express';
import { isAppError } from '../../../domain/shared/app-error';
import { sendError } from '../shared/envelope';
import { MESSAGES } from '../shared/messages';

/**
 * The spec's statusPageNotFound is "400 or 404": the status table has it as 404 (a page that is
 * missing or outside the caller's scope, answered alike); a malformed id (the use case sets
 * data.reason `malformedId`) is 400.
 */
export async function withPageStatus<T>(req: Request, res: Response, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (isAppError(error) && error.code === 'statusPageNotFound' && typeof error.details.reason === 'string') {
      sendError(
        req,
        res,
        400,
        { code: error.code, ...error.details },
        error.message !== error.code ? error.message : MESSAGES.statusPageNotFound,
      );
      return undefined;
    }
    throw error;
  }
}
