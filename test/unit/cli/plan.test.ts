import { expect } from 'chai';
import { MissingEnv, resolveEnv } from '../../../src/interfaces/cli/env-refs';
import { planChanges, PlanError, type PlanOptions } from '../../../src/interfaces/cli/plan';
import { renderPlan } from '../../../src/interfaces/cli/render';
import {
  type Actual,
  commonFields,
  type Desired,
  entryOfMonitor,
  monitorFromEntry,
  STORED_SECRET,
} from '../../../src/interfaces/cli/resources';

const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const desired = (key: string, fields: Record<string, unknown>, over: Partial<Desired> = {}): Desired => ({
  type: 'monitor',
  key,
  kind: 'website',
  customer: CUSTOMER,
  fields,
  where: () => `wsm.yaml:${key.length}`,
  whereField: (field) => `wsm.yaml:${field.length}`,
  ...over,
});
const actual = (key: string, fields: Record<string, unknown>, over: Partial<Actual> = {}): Actual => ({
  type: 'monitor',
  key,
  kind: 'website',
  customer: CUSTOMER,
  fields,
  id: `id-${key}`,
  ...over,
});
const env: Record<string, string> = { TOKEN: 's3cret' };
const options = (over: Partial<PlanOptions> = {}): PlanOptions => ({
  prune: false,
  customer: null,
  resolve: (value) => resolveEnv(value, env),
  ...over,
});

describe('wsm plan: the diff between file and service', () => {
  it('creates what the service lacks, changes only the fields that differ, and leaves unnamed fields alone', () => {
    const changes = planChanges(
      [desired('a', { name: 'A', checkInterval: 10 }), desired('b', { name: 'B', checkInterval: 5 })],
      [actual('b', { name: 'B', checkInterval: 1, timeoutSeconds: 30 })],
      options(),
    );
    expect(changes.map((c) => [c.action, c.key])).to.deep.equal([
      ['create', 'a'],
      ['update', 'b'],
    ]);
    expect(changes[1]!.fields).to.deep.equal([{ field: 'checkInterval', before: 1, after: 5, secret: false }]);
  });

  it('deletes what the file no longer names only with prune, and only within the file customer', () => {
    const service = [actual('kept', {}), actual('gone', {}), actual('elsewhere', {}, { customer: OTHER })];
    const file = [desired('kept', {})];
    expect(planChanges(file, service, options())).to.deep.equal([]);
    const pruned = planChanges(file, service, options({ prune: true, customer: CUSTOMER }));
    expect(pruned.map((c) => [c.action, c.key])).to.deep.equal([['delete', 'gone']]);
    expect(planChanges(file, service, options({ prune: true })).map((c) => c.key)).to.deep.equal(['gone', 'elsewhere']);
  });

  it('matches an entry by the service key, or by publicId for a monitor without one, never by name', () => {
    const service = [actual('5e0d8a3c-0000-4000-8000-000000000001', { name: 'Shop' }, { id: '5e0d8a3c-0000-4000-8000-000000000001' })];
    expect(planChanges([desired('5e0d8a3c-0000-4000-8000-000000000001', { name: 'Shop' })], service, options())).to.deep.equal([]);
    const renamed = planChanges([desired('shop', { name: 'Shop' })], service, options());
    expect(renamed.map((c) => c.action)).to.deep.equal(['create']);
  });

  it('orders tags, then channels, then monitors, and deletes the other way round', () => {
    const tag = (key: string): Desired => desired(key, { color: '#EF4444' }, { type: 'tag', kind: 'tag' });
    const channel = (key: string): Desired => desired(key, { name: key }, { type: 'channel', kind: 'email' });
    const changes = planChanges(
      [desired('m', {}), channel('c'), tag('T')],
      [
        actual('old', {}),
        { ...actual('Old', { color: '#EF4444' }), type: 'tag', kind: 'tag' },
        { ...actual('old-c', {}), type: 'channel', kind: 'email' },
      ],
      options({ prune: true }),
    );
    expect(changes.map((c) => `${c.action} ${c.type}`)).to.deep.equal([
      'create tag',
      'create channel',
      'create monitor',
      'delete monitor',
      'delete channel',
      'delete tag',
    ]);
  });

  it('compares tags by name regardless of case and order, and a tag colour regardless of case', () => {
    const same = planChanges([desired('m', { tags: ['b', 'A'] })], [actual('m', { tags: ['a', 'B'] })], options());
    expect(same).to.deep.equal([]);
    const tag = { type: 'tag' as const, kind: 'tag' };
    expect(planChanges([desired('T', { color: '#ef4444' }, tag)], [actual('t', { color: '#EF4444' }, tag)], options())).to.deep.equal([]);
  });

  it('compares referenced values resolved, and prints them as (secret)', () => {
    const file = [desired('m', { headers: { Authorization: 'Bearer ${env:TOKEN}' } })];
    expect(planChanges(file, [actual('m', { headers: { Authorization: 'Bearer s3cret' } })], options())).to.deep.equal([]);
    const changes = planChanges(file, [actual('m', { headers: { Authorization: 'Bearer old' } })], options());
    expect(changes[0]!.fields[0]).to.include({ field: 'headers', secret: true });
    const text = renderPlan(changes, 'wsm.yaml');
    expect(text).to.include('headers: (secret) -> (secret)').and.not.include('s3cret').and.not.include('old');
  });

  it('treats write-only credentials as set or not, never by value', () => {
    const creds = { username: 'u', password: '${env:TOKEN}' };
    expect(planChanges([desired('m', { credentials: creds })], [actual('m', { credentials: STORED_SECRET })], options())).to.deep.equal([]);
    const setting = planChanges([desired('m', { credentials: creds })], [actual('m', {})], options());
    expect(renderPlan(setting, 'f')).to.include('credentials: null -> (secret)');
    const clearing = planChanges([desired('m', { credentials: null })], [actual('m', { credentials: STORED_SECRET })], options());
    expect(renderPlan(clearing, 'f')).to.include('credentials: (secret) -> null');
  });

  it('names the line and field of a reference to an unset variable', () => {
    const file = [desired('m', { headers: { 'X-Key': '${env:UNSET}' } })];
    const resolve: PlanOptions['resolve'] = (value, entry, field) => {
      try {
        return resolveEnv(value, env);
      } catch (error) {
        throw new PlanError(`${entry.whereField(field)}: ${field}: ${(error as MissingEnv).message}`);
      }
    };
    expect(() => planChanges(file, [actual('m', {})], options({ resolve }))).to.throw(
      PlanError,
      'wsm.yaml:7: headers: environment variable UNSET is not set',
    );
  });

  it('refuses an entry whose key names a monitor of another kind or customer', () => {
    expect(() => planChanges([desired('m', {}, { kind: 'dns' })], [actual('m', {})], options())).to.throw(PlanError, 'cannot change kind');
    expect(() => planChanges([desired('m', {}, { customer: OTHER })], [actual('m', {})], options())).to.throw(PlanError, 'cannot move');
  });

  it('renders no change, and counts by action', () => {
    expect(renderPlan([], 'wsm.yaml')).to.equal('No changes: the service matches wsm.yaml.\n');
    const text = renderPlan(planChanges([desired('m', { name: 'M' })], [], options()), 'wsm.yaml');
    expect(text).to.equal('+ create monitor m (website)  (wsm.yaml:1)\n    name: "M"\n\nPlan: 1 to create, 0 to change, 0 to delete.\n');
  });
});

describe('wsm export: defaults per kind', () => {
  it('writes a value most monitors of a kind share once, and entries only what differs; loading merges them back', () => {
    const service = [
      actual('a', { name: 'A', checkInterval: 5, tags: ['x'] }),
      actual('b', { name: 'B', checkInterval: 5, tags: [] }),
      actual('c', { name: 'C', checkInterval: 1, tags: ['x'] }),
      actual('p', { hostname: 'h' }, { kind: 'icmp' }),
    ];
    const defaults = commonFields(service);
    expect(defaults).to.deep.equal({ website: { checkInterval: 5, tags: ['x'] } });
    const entries = service.map((m) => entryOfMonitor(m, CUSTOMER, defaults[m.kind]));
    expect(entries[1]).to.deep.equal({ key: 'b', kind: 'website', name: 'B', tags: [] });
    expect(entries[2]).to.deep.equal({ key: 'c', kind: 'website', name: 'C', checkInterval: 1 });
    const loaded = entries.map((e) => monitorFromEntry(e as never, CUSTOMER, () => 'f', undefined, defaults[e.kind as string]));
    expect(planChanges(loaded, service, options({ prune: true }))).to.deep.equal([]);
  });
});
