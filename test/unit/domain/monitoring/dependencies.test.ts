import { expect } from 'chai';
import {
  decideDependencies,
  findLoop,
  MAX_DEPENDENCIES,
  type DependencyChange,
  type DependencyNode,
  type DependencyTarget,
} from '../../../../src/domain/monitoring/dependencies';
import { expectAppError } from '../../../support/expect-app-error';

const uuid = (id: number) => `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
const target = (id: number, over: Partial<DependencyTarget> = {}): DependencyTarget => ({
  id,
  publicId: uuid(id),
  organizationId: 1,
  customerId: 10,
  managementType: 'managed',
  ...over,
});

/** Monitor 1 of customer 10 in organization 1; targets by publicId; the stored graph as given. */
function change(
  refs: string[],
  over: Partial<DependencyChange> = {},
  targets: DependencyTarget[] = [],
  graph: Record<number, number[]> = {},
) {
  const byRef = new Map(targets.flatMap((t) => [[t.publicId, t] as const, [String(t.id), t] as const]));
  const nodes = new Map<number, DependencyNode>(
    Object.entries(graph).map(([id, deps]) => [Number(id), { publicId: uuid(Number(id)), dependsOn: deps }]),
  );
  return {
    monitor: { id: 1, publicId: uuid(1), organizationId: 1, customerId: 10, dependsOn: [] },
    refs,
    resolve: (ref: string) => byRef.get(ref),
    organizationWide: true,
    graph: nodes,
    ...over,
  } satisfies DependencyChange;
}

describe('monitor dependencies: which monitors a monitor may depend on', () => {
  it('takes monitors of its own customer, in the order named, duplicates dropped (by id or publicId)', () => {
    const ids = decideDependencies(change([uuid(3), '2', uuid(3)], {}, [target(2), target(3)]));
    expect(ids).to.deep.equal([3, 2]);
  });

  it('refuses a monitor the organization does not have, or one of another organization, as not found', () => {
    expectAppError(() => decideDependencies(change([uuid(9)])), 'dependencyNotFound');
    expectAppError(() => decideDependencies(change([uuid(2)], {}, [target(2, { organizationId: 2 })])), 'dependencyNotFound');
  });

  it("lets an organization-wide caller link another customer's managed monitor (the organization's shared one)", () => {
    expect(decideDependencies(change([uuid(2)], {}, [target(2, { customerId: 11, managementType: 'managed' })]))).to.deep.equal([2]);
  });

  it("never another customer's self-service monitor", () => {
    expectAppError(
      () => decideDependencies(change([uuid(2)], {}, [target(2, { customerId: 11, managementType: 'self_service' })])),
      'dependencyNotShared',
    );
  });

  it("hides other customers' monitors from a customer-bound caller, but keeps a link the organization made", () => {
    const shared = target(2, { customerId: 11 });
    expectAppError(() => decideDependencies(change([uuid(2)], { organizationWide: false }, [shared])), 'dependencyNotFound');
    const kept = change([uuid(2)], { organizationWide: false }, [shared]);
    expect(decideDependencies({ ...kept, monitor: { ...kept.monitor, dependsOn: [2] } })).to.deep.equal([2]);
  });

  it(`takes at most ${MAX_DEPENDENCIES}`, () => {
    const many = Array.from({ length: MAX_DEPENDENCIES + 1 }, (_, i) => target(i + 2));
    expectAppError(
      () =>
        decideDependencies(
          change(
            many.map((t) => t.publicId),
            {},
            many,
          ),
        ),
      'tooManyDependencies',
    );
    expect(
      decideDependencies(
        change(
          many.slice(1).map((t) => t.publicId),
          {},
          many,
        ),
      ),
    ).to.have.length(MAX_DEPENDENCIES);
  });

  it('refuses a monitor depending on itself, naming the loop', () => {
    const error = expectAppError(() => decideDependencies(change([uuid(1)], {}, [target(1)])), 'dependencyCycle');
    expect(error.details.cycle).to.deep.equal([uuid(1), uuid(1)]);
  });

  it('refuses a loop through others, naming its monitors in order from this one back to it', () => {
    // 2 -> 3 -> 1 stored; 1 -> 2 would close 1 -> 2 -> 3 -> 1
    const error = expectAppError(() => decideDependencies(change([uuid(2)], {}, [target(2)], { 2: [3], 3: [1] })), 'dependencyCycle');
    expect(error.details.cycle).to.deep.equal([uuid(1), uuid(2), uuid(3), uuid(1)]);
  });

  it('accepts a diamond and a chain that do not come back', () => {
    expect(decideDependencies(change([uuid(2), uuid(3)], {}, [target(2), target(3)], { 2: [4], 3: [4], 4: [5] }))).to.deep.equal([2, 3]);
  });
});

describe('findLoop', () => {
  it('replaces the monitor stored edges with the new ones', () => {
    // stored: 1 -> 2 -> 1 would be a loop, but 1 now depends on 3 only
    expect(
      findLoop(
        1,
        [3],
        new Map([
          [1, [2]],
          [2, [1]],
          [3, []],
        ]),
      ),
    ).to.equal(null);
    expect(
      findLoop(
        1,
        [2],
        new Map([
          [2, [3]],
          [3, [2]],
        ]),
      ),
    ).to.equal(null, 'a loop not through the monitor is not its own');
    expect(
      findLoop(
        1,
        [2],
        new Map([
          [2, [3]],
          [3, [4]],
          [4, [1]],
        ]),
      ),
    ).to.deep.equal([1, 2, 3, 4, 1]);
  });
});
