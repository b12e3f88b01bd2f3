/** A form's values by field name: text fields as typed, checkboxes as booleans (a field not yet given: absent). */
export type Values<Name extends string = string> = { [Key in Name]?: string | boolean };

/**
 * One setting of a monitor as a form field: how it is typed and turned into the API's value.
 * `number` sends a number (an unparsable entry is sent as typed, so the API names what is wrong),
 * `list` one entry per line (`numbers`: as numbers), `nullable` sends null for an emptied field.
 * `Name`: the names the form's body has (./monitor-bodies.ts FieldName), so a field the body lacks
 * fails the typecheck.
 */
export interface FieldSpec<Name extends string = string> {
  readonly name: Name;
  readonly label: string;
  readonly type: 'text' | 'number' | 'select' | 'checkbox' | 'textarea' | 'list' | 'password';
  readonly options?: readonly string[];
  readonly hint?: string;
  readonly placeholder?: string;
  readonly nullable?: boolean;
  readonly numbers?: boolean;
  /** Shown (and sent) only when this says so. */
  readonly when?: (values: Values<Name>) => boolean;
  /** A heading the field is shown under with its kind (none: at the top of the form). */
  readonly group?: string;
  /** Never part of a change request (stored in clear there) and never read back (write-only). */
  readonly secret?: boolean;
  /** What is sent for it while it is not shown (an SNMP v2c login's user, which the check does not use). */
  readonly implicit?: string;
  /** The API has no default for it: a new monitor always sends it, even as the form first shows it. */
  readonly required?: boolean;
}
