import { expect } from 'chai';
import { planMonitor } from '../../../../src/domain/monitoring/plan-monitor';
import type { PlanContext } from '../../../../src/domain/monitoring/monitor-plan';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/domain/monitoring/alert-settings';
import { expectAppError } from '../../../support/expect-app-error';

const ctx: PlanContext = {
  kind: 'website',
  packageMinimumInterval: 1,
  locationCatalogue: ['eu-west'],
  defaultLocations: ['eu-west'],
  alertDefaults: DEFAULT_ALERT_SETTINGS,
};
const steps = [
  {
    name: 'log in',
    method: 'POST',
    url: 'https://auth.example.com/login',
    body: '{"password":"{{secrets.password}}"}',
    extract: [{ variable: 'token', source: 'jsonPath', expression: '$.token' }],
  },
  { name: 'read', url: 'https://api.example.com/me?x={{token}}', headers: { authorization: 'Bearer {{token}}' } },
];
const create = (input: Record<string, unknown>) => planMonitor(ctx, null, { monitoringType: 'api_chain', ...input });

describe('planning an API chain website', () => {
  it('stores the steps with their defaults, the secret names only, sets the secrets to encrypt, and vets every step host', () => {
    const plan = create({ steps, secrets: { password: 'hunter2' } });
    expect(plan.state).to.include({ monitoringType: 'api_chain', url: 'https://auth.example.com/', name: 'auth.example.com' });
    expect(plan.state.config.secretNames).to.deep.equal(['password']);
    expect(plan.state.config.steps![1]).to.deep.equal({
      name: 'read',
      method: 'GET',
      url: 'https://api.example.com/me?x={{token}}',
      headers: { authorization: 'Bearer {{token}}' },
      body: null,
      extract: [],
      assertions: [],
    });
    expect(JSON.stringify(plan.state)).to.not.contain('hunter2');
    expect(plan.credentials).to.deep.equal({ kind: 'set', value: { secrets: { password: 'hunter2' } } });
    expect(plan.targets).to.deep.equal([
      { field: 'url', label: 'steps[0].url', host: 'auth.example.com' },
      { field: 'url', label: 'steps[1].url', host: 'api.example.com' },
    ]);
  });

  it('requires steps, and refuses a secret reference the stored or sent secrets do not define', () => {
    expectAppError(() => create({}), 'validationFailed');
    expectAppError(() => create({ steps }), 'validationFailed');
    const current = create({ steps, secrets: { password: 'x' } }).state;
    expectAppError(() => planMonitor(ctx, current, { secrets: null }), 'validationFailed');
  });

  it('answers invalidUrl naming the step for a URL the service may not check', () => {
    expectAppError(() => create({ steps: [{ name: 'a', url: 'http://db.internal/x' }] }), 'invalidUrl');
  });

  it('keeps stored secrets on an update without secrets, vets hosts again only when steps or locations are sent, and drops the chain on leaving the type', () => {
    const current = create({ steps, secrets: { password: 'x' } }).state;
    const renamed = planMonitor(ctx, current, { name: 'Login flow' });
    expect(renamed.credentials).to.deep.equal({ kind: 'keep' });
    expect(renamed.targets).to.deep.equal([]);
    expect(planMonitor(ctx, current, { locations: ['eu-west'] }).targets.map((t) => t.label)).to.deep.equal([
      'steps[0].url',
      'steps[1].url',
    ]);
    const left = planMonitor(ctx, current, { monitoringType: 'http', url: 'https://api.example.com/' });
    expect(left.credentials).to.deep.equal({ kind: 'clear' });
    expect(left.state.config).to.include({ steps: null });
    expect(left.state.config.secretNames).to.deep.equal([]);
  });
});
