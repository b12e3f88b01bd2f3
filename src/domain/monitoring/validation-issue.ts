import { AppError } from '../shared/app-error';

/** A rule the spec reports as a schema failure: 400 validationFailed with one issue on `path`. */
export const validationIssue = (path: string, message: string, code = 'custom'): AppError =>
  new AppError('validationFailed', { issues: [{ path: [path], message, code }] });
