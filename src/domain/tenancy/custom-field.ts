import { assertNoIssues, issue, type Issue } from './validation';

export const CUSTOM_FIELD_TYPES = ['text', 'textarea', 'number', 'boolean', 'select', 'date', 'email', 'url'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;

export interface CustomFieldSettings {
  name: string;
  fieldType: CustomFieldType;
  isRequired: boolean;
  displayOrder: number;
  options: string[];
  placeholder: string | null;
  helpText: string | null;
  showInTable: boolean;
  isActive: boolean;
}

/** A select needs at least one option, all distinct; other types take none. */
function optionIssues(fieldType: CustomFieldType, options: readonly string[]): Issue[] {
  if (fieldType === 'select') {
    if (options.length === 0) return [issue(['options'], 'A select field needs at least one option')];
    if (new Set(options).size !== options.length) return [issue(['options'], 'Options must be distinct')];
    return [];
  }
  return options.length > 0 ? [issue(['options'], 'Only select fields take options')] : [];
}

/** An organization's definition of extra data kept on each customer (the customer's customFields). */
export class CustomField implements CustomFieldSettings {
  id!: number;
  publicId: string;
  organizationId: number;
  fieldKey: string;
  name: string;
  fieldType: CustomFieldType;
  isRequired: boolean;
  displayOrder: number;
  options: string[];
  placeholder: string | null;
  helpText: string | null;
  showInTable: boolean;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(
    props: Omit<CustomFieldSettings, 'isActive'> & {
      publicId: string;
      organizationId: number;
      fieldKey: string;
      isActive?: boolean;
      now: Date;
    },
  ) {
    assertNoIssues(optionIssues(props.fieldType, props.options));
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.fieldKey = props.fieldKey;
    this.name = props.name;
    this.fieldType = props.fieldType;
    this.isRequired = props.isRequired;
    this.displayOrder = props.displayOrder;
    this.options = [...props.options];
    this.placeholder = props.placeholder;
    this.helpText = props.helpText;
    this.showInTable = props.showInTable;
    this.isActive = props.isActive ?? true;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /** Changing the type away from select drops the options unless new ones are sent (then refused). */
  change(change: Partial<CustomFieldSettings>, now: Date): void {
    const fieldType = change.fieldType ?? this.fieldType;
    const options = change.options ?? (fieldType === 'select' ? this.options : []);
    assertNoIssues(optionIssues(fieldType, options));
    Object.assign(this, { ...change, fieldType, options: [...options], updatedAt: now });
  }
}
