import { expect } from 'chai';
import { currentStateOf, type StateFacts } from '../../../../src/domain/incidents/current-state';

const since = new Date('2026-11-22T10:00:00Z');
const facts = (overrides: Partial<StateFacts> = {}): StateFacts => ({
  paused: false,
  reported: true,
  incidentOpen: false,
  silentLocations: [],
  undecidedSince: null,
  ...overrides,
});

describe("a monitor's current state", () => {
  it('is up when results came and no incident is open, down while one is', () => {
    expect(currentStateOf(facts())).to.deep.equal({
      status: 'up',
      reason: null,
      silentLocations: [],
      unknownSince: null,
      dependencyRoot: null,
    });
    expect(currentStateOf(facts({ incidentOpen: true }))).to.include({ status: 'down', reason: null });
  });

  it('is unknown for its silent locations when it cannot be decided, even with an incident open', () => {
    expect(currentStateOf(facts({ incidentOpen: true, silentLocations: ['us'], undecidedSince: since }))).to.deep.equal({
      status: 'unknown',
      reason: 'silentLocations',
      silentLocations: ['us'],
      unknownSince: since,
      dependencyRoot: null,
    });
  });

  it('shows silent locations that still leave it decidable', () => {
    expect(currentStateOf(facts({ silentLocations: ['asia'] }))).to.deep.equal({
      status: 'up',
      reason: null,
      silentLocations: ['asia'],
      unknownSince: null,
      dependencyRoot: null,
    });
  });

  it('is unknown before any result, and while paused', () => {
    expect(currentStateOf(facts({ reported: false }))).to.include({ status: 'unknown', reason: 'noResults' });
    expect(currentStateOf(facts({ paused: true, incidentOpen: true }))).to.include({ status: 'unknown', reason: 'paused' });
  });

  it('is dependencyDown, naming the root, while a dependency holds its failure back; its own incident comes first', () => {
    const root = '00000000-0000-4000-8000-000000000001';
    expect(currentStateOf(facts({ dependencyRoot: root }))).to.deep.equal({
      status: 'dependencyDown',
      reason: null,
      silentLocations: [],
      unknownSince: null,
      dependencyRoot: root,
    });
    expect(currentStateOf(facts({ dependencyRoot: root, incidentOpen: true }))).to.include({ status: 'down', dependencyRoot: null });
    expect(currentStateOf(facts({ dependencyRoot: root, paused: true }))).to.include({ status: 'unknown', reason: 'paused' });
  });
});
