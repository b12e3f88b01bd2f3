import { expect } from 'chai';
import { CheckReadiness } from '../../../../src/application/identity/check-readiness';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeSchemaProbe } from '../../../support/fakes/identity-fakes';

describe('CheckReadiness', () => {
  it('is ready when the database answers with every migration applied', async () => {
    expect(await new CheckReadiness(new FakeSchemaProbe()).execute()).to.deep.equal({ status: 'ready' });
  });

  it('answers databaseUnavailable while the database does not answer, and is ready again once it does', async () => {
    const schema = new FakeSchemaProbe();
    const readiness = new CheckReadiness(schema);
    schema.up = false;
    await expectAppErrorAsync(() => readiness.execute(), 'databaseUnavailable');
    schema.up = true;
    expect(await readiness.execute()).to.deep.equal({ status: 'ready' });
  });

  it('answers migrationsPending with their number when the schema is older than this build', async () => {
    const schema = new FakeSchemaProbe();
    schema.pending = 2;
    await expectAppErrorAsync(() => new CheckReadiness(schema).execute(), 'migrationsPending', { pending: 2 });
  });
});
