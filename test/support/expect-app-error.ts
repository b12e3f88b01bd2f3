import { expect } from 'chai';
import { AppError } from '../../src/domain/shared/app-error';

/**
 * The one place tests read AppErrors. `codeOf` answers the code of the AppError that `work` throws
 * (or its promise rejects with), and undefined when it succeeds; anything thrown that is not an
 * AppError fails the test, so a crash never passes for "no code".
 */
export function codeOf(work: Promise<unknown> | (() => Promise<unknown>)): Promise<string | undefined>;
export function codeOf(work: () => unknown): string | undefined;
export function codeOf(work: Promise<unknown> | (() => unknown)): string | undefined | Promise<string | undefined> {
  let outcome: unknown;
  try {
    outcome = typeof work === 'function' ? work() : work;
  } catch (error) {
    return appErrorCode(error);
  }
  if (outcome instanceof Promise) return outcome.then(() => undefined, appErrorCode);
  return undefined;
}

function appErrorCode(error: unknown): string {
  if (!(error instanceof AppError)) throw error;
  return error.code;
}

function assertAppError(thrown: unknown, code: string, details?: Record<string, unknown>): AppError {
  expect(thrown, `expected AppError ${code}`).to.be.instanceOf(AppError);
  const error = thrown as AppError;
  expect(error.code).to.equal(code);
  if (details) expect(error.details).to.deep.include(details);
  return error;
}

/** Runs `work` and asserts it throws an AppError with `code` (and details including `details`); answers the error. */
export function expectAppError(work: () => unknown, code: string, details?: Record<string, unknown>): AppError {
  let thrown: unknown;
  try {
    work();
  } catch (error) {
    thrown = error;
  }
  return assertAppError(thrown, code, details);
}

/** The async twin of expectAppError: `work` is a promise or a function answering one. */
export async function expectAppErrorAsync(
  work: Promise<unknown> | (() => Promise<unknown>),
  code: string,
  details?: Record<string, unknown>,
): Promise<AppError> {
  let thrown: unknown;
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    thrown = error;
  }
  return assertAppError(thrown, code, details);
}
