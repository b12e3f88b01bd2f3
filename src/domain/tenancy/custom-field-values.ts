import { AppError } from '../shared/app-error';
import type { CustomField } from './custom-field';
import { issue, type Issue } from './validation';

export type CustomFieldValue = string | number | boolean;
export type CustomFieldValues = Record<string, CustomFieldValue>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
const URL_PATTERN = /^https?:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/i;

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The stored form of one value, or the reason it does not fit the field. */
function coerce(field: CustomField, value: unknown): { value: CustomFieldValue } | { problem: string } {
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (field.fieldType) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { problem: 'must be a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'must be true or false' };
    case 'select':
      return text !== undefined && field.options.includes(text)
        ? { value: text }
        : { problem: `must be one of: ${field.options.join(', ')}` };
    case 'date':
      return text !== undefined && isCalendarDate(text) ? { value: text } : { problem: 'must be a date (YYYY-MM-DD)' };
    case 'email':
      return text !== undefined && text.length <= 254 && EMAIL.test(text) ? { value: text } : { problem: 'must be an email address' };
    case 'url':
      return text !== undefined && text.length <= 2048 && URL_PATTERN.test(text) ? { value: text } : { problem: 'must be an http(s) URL' };
    default: {
      const max = field.fieldType === 'textarea' ? 10_000 : 1_000;
      return text !== undefined && text.length <= max ? { value: text } : { problem: `must be text of at most ${max} characters` };
    }
  }
}

const isBlank = (value: CustomFieldValue | undefined) => value === undefined || value === '';

/**
 * Applies `changes` (a key set to null clears it) to a customer's `current` values, checked against
 * the organization's definitions: every changed key must be an active field and its value must fit
 * the field's type; the result must hold every active required field. Values of fields that were
 * later deactivated or deleted are kept as they are. Problems are 400 invalidCustomFields, listed
 * in data.issues by path.
 */
export function applyCustomFieldValues(
  definitions: readonly CustomField[],
  current: CustomFieldValues,
  changes: Record<string, unknown>,
): CustomFieldValues {
  const issues: Issue[] = [];
  const result: CustomFieldValues = { ...current };
  for (const [key, raw] of Object.entries(changes)) {
    const field = definitions.find((definition) => definition.fieldKey === key);
    const path = ['customFields', key];
    if (!field) issues.push(issue(path, 'Unknown custom field'));
    else if (!field.isActive) issues.push(issue(path, 'Custom field is inactive'));
    else if (raw === null) delete result[key];
    else {
      const coerced = coerce(field, raw);
      if ('problem' in coerced) issues.push(issue(path, `${field.name} ${coerced.problem}`));
      else result[key] = coerced.value;
    }
  }
  for (const field of definitions) {
    if (field.isActive && field.isRequired && isBlank(result[field.fieldKey]) && !issues.some((i) => i.path[1] === field.fieldKey)) {
      issues.push(issue(['customFields', field.fieldKey], `${field.name} is required`));
    }
  }
  if (issues.length > 0) throw new AppError('invalidCustomFields', { issues }, 'Custom field values are invalid');
  return result;
}
