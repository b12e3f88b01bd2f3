import { expect } from 'chai';
import { AppError } from '../../src/domain/shared/app-error';

/** The code of the AppError `work` throws, or undefined when it throws nothing. */
export function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return (error as AppError).code;
  }
  return undefined;
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

/** The async twin of expectAppError. */
export async function expectAppErrorAsync(work: () => Promise<unknown>, code: string, details?: Record<string, unknown>): Promise<AppError> {
  let thrown: unknown;
  try {
    await work();
  } catch (error) {
    thrown = error;
  }
  return assertAppError(thrown, code, details);
}
