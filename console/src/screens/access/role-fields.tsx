import type { Customer, Schemas } from '../../api/client';
import { Field } from '../../components/field';
import { ROLES, ROLE_LABELS } from './user-line';

type Role = Schemas['User']['role'];

/**
 * The role and the customer a new person is tied to, shared by the add-user and invite forms: the
 * same choices, the same labels, the API's refusal shown at each field.
 */
export function RoleAndCustomerFields({
  idPrefix,
  role,
  customerId,
  customers,
  fieldError,
  onRole,
  onCustomer,
}: {
  idPrefix: string;
  role: Role;
  customerId: string;
  customers: Customer[];
  fieldError: (name: string) => string | undefined;
  onRole: (role: Role) => void;
  onCustomer: (customerId: string) => void;
}) {
  return (
    <>
      <Field label="Role" id={`${idPrefix}-role`} error={fieldError('role')}>
        <select id={`${idPrefix}-role`} value={role} onChange={(event) => onRole(event.currentTarget.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Tied to a customer" id={`${idPrefix}-customer`} error={fieldError('customerId')}>
        <select id={`${idPrefix}-customer`} value={customerId} onChange={(event) => onCustomer(event.currentTarget.value)}>
          <option value="">No: the whole organization</option>
          {customers.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

/** The API's customerId from the select's value ('' is the whole organization). */
export const customerIdOf = (value: string): number | null => (value === '' ? null : Number(value));
