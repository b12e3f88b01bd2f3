import { AppError } from './app-error';

/**
 * A stable key a client gives a record (monitoring as code matches the entries of its file to
 * records by it): letters, digits and `. _ : / -`, starting with a letter or digit, at most 128.
 */
export const RESOURCE_KEY = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

/** The key sent, checked: undefined when not sent, null to clear; 400 validationFailed on `key` otherwise. */
export function resourceKeyOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string' || !RESOURCE_KEY.test(value))
    throw new AppError('validationFailed', {
      issues: [
        {
          path: ['key'],
          message: 'Letters, digits and . _ : / -, starting with a letter or digit, at most 128 characters',
          code: 'invalid_format',
        },
      ],
    });
  return value;
}
