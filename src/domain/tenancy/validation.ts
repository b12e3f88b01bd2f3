import { AppError } from '../shared/app-error';

/** One problem with a request value, in the shape of the 400 validationFailed issues. */
export interface Issue {
  readonly path: string[];
  readonly message: string;
  readonly code: string;
}

export const issue = (path: string[], message: string, code = 'custom'): Issue => ({ path, message, code });

/** Throws 400 validationFailed with the issues, when there are any. */
export function assertNoIssues(issues: Issue[]): void {
  if (issues.length > 0) throw new AppError('validationFailed', { issues }, 'Validation failed');
}
