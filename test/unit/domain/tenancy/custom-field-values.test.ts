import { expect } from 'chai';
import { CustomField, type CustomFieldType } from '../../../../src/domain/tenancy/custom-field';
import { applyCustomFieldValues } from '../../../../src/domain/tenancy/custom-field-values';

const now = new Date('2026-01-01T00:00:00Z');
const field = (
  fieldKey: string,
  fieldType: CustomFieldType,
  extra: Partial<{ isRequired: boolean; options: string[]; isActive: boolean }> = {},
) =>
  new CustomField({
    publicId: fieldKey,
    organizationId: 1,
    fieldKey,
    name: fieldKey.toUpperCase(),
    fieldType,
    isRequired: extra.isRequired ?? false,
    displayOrder: 0,
    options: extra.options ?? [],
    placeholder: null,
    helpText: null,
    showInTable: false,
    isActive: extra.isActive,
    now,
  });

const issuesOf = (work: () => unknown): Array<{ path: string[]; message: string }> => {
  try {
    work();
  } catch (error) {
    expect((error as { code: string }).code).to.equal('invalidCustomFields');
    return (error as { details: { issues: Array<{ path: string[]; message: string }> } }).details.issues;
  }
  throw new Error('expected invalidCustomFields');
};

describe('applyCustomFieldValues', () => {
  const definitions = [
    field('plan', 'select', { options: ['a', 'b'], isRequired: true }),
    field('seats', 'number'),
    field('vip', 'boolean'),
    field('since', 'date'),
    field('contact', 'email'),
    field('site', 'url'),
    field('note', 'text'),
    field('bio', 'textarea'),
    field('legacy', 'text', { isActive: false, isRequired: true }),
  ];

  it('accepts values of every type, trimming text', () => {
    const values = applyCustomFieldValues(
      definitions,
      {},
      {
        plan: 'a',
        seats: 3.5,
        vip: true,
        since: '2024-02-29',
        contact: 'a@b.co',
        site: 'https://x.example/p?q=1',
        note: ' hi ',
        bio: 'x'.repeat(5000),
      },
    );
    expect(values).to.include({ plan: 'a', seats: 3.5, vip: true, since: '2024-02-29', note: 'hi', site: 'https://x.example/p?q=1' });
  });

  it('names every problem by path', () => {
    const issues = issuesOf(() =>
      applyCustomFieldValues(
        definitions,
        {},
        {
          plan: 'c',
          seats: '3',
          vip: 'yes',
          since: '2023-02-29',
          contact: 'nope',
          site: 'ftp://x.example',
          note: 'x'.repeat(1001),
          other: 1,
        },
      ),
    );
    expect(issues.map((i) => i.path[1])).to.deep.equal(['plan', 'seats', 'vip', 'since', 'contact', 'site', 'note', 'other']);
    expect(issues[0]!.message).to.equal('PLAN must be one of: a, b');
  });

  it('requires active required fields, not inactive ones, and refuses values for inactive fields', () => {
    expect(issuesOf(() => applyCustomFieldValues(definitions, {}, {})).map((i) => i.message)).to.deep.equal(['PLAN is required']);
    expect(issuesOf(() => applyCustomFieldValues(definitions, {}, { plan: 'a', legacy: 'x' }))[0]!.message).to.equal(
      'Custom field is inactive',
    );
  });

  it('merges changes into current values; null clears a key; stored values of retired fields stay', () => {
    const merged = applyCustomFieldValues(
      definitions,
      { plan: 'a', seats: 2, legacy: 'kept', gone: 'kept too' },
      { seats: null, plan: 'b' },
    );
    expect(merged).to.deep.equal({ plan: 'b', legacy: 'kept', gone: 'kept too' });
    expect(issuesOf(() => applyCustomFieldValues(definitions, { plan: 'a' }, { plan: null }))[0]!.path).to.deep.equal([
      'customFields',
      'plan',
    ]);
  });
});

describe('CustomField options', () => {
  it('needs distinct options for select and none for other types', () => {
    expect(() => field('s', 'select'))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(() => field('s', 'select', { options: ['a', 'a'] }))
      .to.throw()
      .with.property('code', 'validationFailed');
    expect(() => field('t', 'text', { options: ['a'] }))
      .to.throw()
      .with.property('code', 'validationFailed');
  });

  it('drops the options when the type changes away from select, and needs them when it changes to select', () => {
    const select = field('s', 'select', { options: ['a'] });
    select.change({ fieldType: 'text' }, now);
    expect(select.options).to.deep.equal([]);
    expect(() => select.change({ fieldType: 'select' }, now))
      .to.throw()
      .with.property('code', 'validationFailed');
    select.change({ fieldType: 'select', options: ['x', 'y'] }, now);
    expect(select.options).to.deep.equal(['x', 'y']);
  });
});
