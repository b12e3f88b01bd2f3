import { expect } from 'chai';
import { CheckReadiness, type SchemaProbe } from '../../../../src/application/identity/check-readiness';
import { expectAppErrorAsync } from '../../../support/expect-app-error';

/** A database as readiness sees it: up or down, and how many migrations it lacks. */
class FakeSchema implements SchemaProbe {
  up = true;
  pending = 0;

  async pendingMigrations(): Promise<number> {
    if (!this.up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return this.pending;
  }
}

describe('CheckReadiness', () => {
  it('is ready when the database answers with every migration applied', async () => {
    expect(await new CheckReadiness(new FakeSchema()).execute()).to.deep.equal({ status: 'ready' });
  });

  it('answers databaseUnavailable while the database does not answer, and is ready again once it does', async () => {
    const schema = new FakeSchema();
    const readiness = new CheckReadiness(schema);
    schema.up = false;
    await expectAppErrorAsync(() => readiness.execute(), 'databaseUnavailable');
    schema.up = true;
    expect(await readiness.execute()).to.deep.equal({ status: 'ready' });
  });

  it('answers migrationsPending with their number when the schema is older than this build', async () => {
    const schema = new FakeSchema();
    schema.pending = 2;
    await expectAppErrorAsync(() => new CheckReadiness(schema).execute(), 'migrationsPending', { pending: 2 });
  });
});
