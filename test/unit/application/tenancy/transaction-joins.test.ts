import { expect } from 'chai';
import { CreateCustomField } from '../../../../src/application/tenancy/create-custom-field';
import { UpdateCustomField } from '../../../../src/application/tenancy/update-custom-field';
import { FakeCustomFields } from '../../../support/fakes/tenancy-fakes';
import { recordedTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { anActor } from '../../../support/builders';

/** The custom-field use cases hand the runner's transaction to their writes (docs/architecture.md). */
describe('custom-field use cases: writes join the transaction they run in', () => {
  it('create inserts and update saves in the transaction each runs in', async () => {
    const fields = new FakeCustomFields();
    const clock = new ManualClock();
    const tx = recordedTransactions();
    const field = await new CreateCustomField(fields, tx, sequentialIds(), clock).execute(anActor().build(), {
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
    await new UpdateCustomField(fields, tx, clock).execute(anActor().build(), { id: field.publicId, change: { name: 'Licences' } });
    expect(tx.handed).to.have.length(2);
    expect(fields.joined).to.deep.equal([['save', tx.handed[1]]]);
  });
});
