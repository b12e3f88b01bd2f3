import type { ErrorCode } from './error-codes';

/** Extras rendered into the envelope's `data` next to the code (retryAfter, unknown, export...). */
export type ErrorDetails = Record<string, unknown>;

/**
 * The one error type of the library. Domain rules and use cases throw it with a stable code;
 * the host decides how to render it (the HTTP layer maps codes to statuses in one table).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details: ErrorDetails = {},
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'AppError';
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
