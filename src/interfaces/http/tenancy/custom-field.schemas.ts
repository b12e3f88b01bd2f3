import { z } from 'zod';
import { CUSTOM_FIELD_KEY, CUSTOM_FIELD_TYPES } from '../../../domain/tenancy/custom-field';
import { Timestamp } from './fields';

const settings = {
  name: z.string().trim().min(1).max(100),
  fieldType: z.enum(CUSTOM_FIELD_TYPES),
  isRequired: z.boolean(),
  displayOrder: z.number().int().min(0).max(100_000),
  options: z.array(z.string().trim().min(1).max(200)).max(100).meta({ description: 'Choices of a select field' }),
  placeholder: z.string().trim().max(200).nullable(),
  helpText: z.string().trim().max(1000).nullable(),
  showInTable: z.boolean(),
  isActive: z.boolean(),
};

export const CreateCustomFieldBody = z
  .object({
    organizationId: z.number().int().positive().optional().meta({ description: "When sent, the caller's own organization" }),
    name: settings.name,
    fieldKey: z.string().trim().regex(CUSTOM_FIELD_KEY, 'Lowercase letter first, then letters, digits or _, up to 64'),
    fieldType: settings.fieldType,
    isRequired: settings.isRequired.default(false),
    displayOrder: settings.displayOrder.default(0),
    options: settings.options.default([]),
    placeholder: settings.placeholder.default(null),
    helpText: settings.helpText.default(null),
    showInTable: settings.showInTable.default(false),
    isActive: settings.isActive.optional(),
  })
  .strict()
  .meta({ id: 'CreateCustomField' });

export const UpdateCustomFieldBody = z.object(settings).partial().strict().meta({ id: 'UpdateCustomField' });

export const CustomFieldSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    fieldKey: z.string(),
    name: z.string(),
    fieldType: z.enum(CUSTOM_FIELD_TYPES),
    isRequired: z.boolean(),
    displayOrder: z.number().int(),
    options: z.array(z.string()),
    placeholder: z.string().nullable(),
    helpText: z.string().nullable(),
    showInTable: z.boolean(),
    isActive: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'CustomField' });
