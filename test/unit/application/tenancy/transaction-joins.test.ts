import { aTenancyWorld } from '../../../support/builders/tenancy';
import { expect } from 'chai';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { anActor } from '../../../support/builders';

/** The custom-field use cases hand the runner's transaction to their writes (docs/architecture.md). */
describe('custom-field use cases: writes join the transaction they run in', () => {
  it('create inserts and update saves in the transaction each runs in', async () => {
    const tx = recordedTransactions();
    const { fields, createField, updateField } = aTenancyWorld({ tx });
    const field = await createField.execute(anActor().build(), {
      fieldKey: 'seats',
      name: 'Seats',
      fieldType: 'number',
      isRequired: false,
      displayOrder: 0,
      options: [],
      placeholder: null,
      helpText: null,
      showInTable: false,
    });
    expect(fields.joined).to.deep.equal([['add', tx.handed[0]]]);
    fields.joined.length = 0;
    await updateField.execute(anActor().build(), { id: field.publicId, change: { name: 'Licences' } });
    expect(tx.handed).to.have.length(2);
    expect(fields.joined).to.deep.equal([['save', tx.handed[1]]]);
  });
});
