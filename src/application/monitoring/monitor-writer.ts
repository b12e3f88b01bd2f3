import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { Monitor } from '../../domain/monitoring/monitor';
import type { ManagementType, MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { CredentialsChange, MonitorInput, MonitorPlan } from '../../domain/monitoring/monitor-plan';
import { isCheckedOnlyFrom, planMonitor } from '../../domain/monitoring/plan-monitor';
import { defaultLocations } from '../../domain/monitoring/locations';
import { decideMonitorQuota } from '../../domain/tenancy/monitor-quota';
import {
  assertMayChangeManagementType,
  assertMayCreate,
  assertMayDelete,
  assertMayEdit,
  assertMayWrite,
  assertSelfServiceRoom,
  managementTypeOnCreate,
} from '../../domain/monitoring/ownership';
import { validationIssue } from '../../domain/monitoring/validation-issue';
import { monitorKeyOf } from '../../domain/monitoring/monitor-key';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TargetPolicy } from '../shared/target-policy';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { SecretTokens } from '../identity/ports';
import type { LocationCatalogue } from '../locations/ports';
import { editorOf } from './monitor-editor';
import { planContextOf } from './plan-context';
import type {
  CredentialCipher,
  MonitorCustomerTerms,
  MonitorCustomerTermsLookup,
  MonitorDependencyGraph,
  MonitorRepository,
  ServedLocations,
} from './ports';
import { decideDependencies } from '../../domain/monitoring/dependencies';
import { SPELLING_ONLY, vetTargets } from './target-vetting';

/** The monitors a monitor depends on (ids or publicIds; the list replaces the stored one), create and update alike. */
export interface DependencyInput {
  dependsOn?: readonly string[];
}

/** Fields of a create body that steer the create rather than describe the monitor. */
export interface CreateControls extends DependencyInput {
  customerId?: number | string;
  managementType?: ManagementType;
  allowPaidQuotaUpgrade?: boolean;
  /** The client's stable key for the monitor (monitorKeyTaken when the organization has it already). */
  key?: string | null;
}

/**
 * Where monitors are checked from: the configured catalogue (MONITOR_LOCATIONS) and who serves which
 * of it now, which give a new monitor its default locations; and every code an organization's
 * monitors may list (the catalogue, platform locations and the organization's private ones), which
 * sent locations are checked against. Private locations are never defaults.
 */
export interface LocationChoice {
  readonly catalogue: readonly string[];
  readonly served: ServedLocations;
  readonly known: LocationCatalogue;
}

/**
 * Creates, changes and deletes monitors of every kind under the ownership, quota and target rules.
 * Validation and target vetting (which may wait on DNS) happen before the transaction; inside it,
 * the customer's row is locked so quota decisions never race.
 */
export class MonitorWriter {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly customers: MonitorCustomerTermsLookup,
    private readonly policy: TargetPolicy,
    private readonly cipher: CredentialCipher,
    private readonly secrets: SecretTokens,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly locations: LocationChoice,
    private readonly dependencies: MonitorDependencyGraph,
  ) {}

  async create(actor: Actor, kind: MonitorKind, input: MonitorInput & CreateControls): Promise<Monitor> {
    const editor = editorOf(actor);
    assertMayWrite(editor);
    const customerRef = input.customerId ?? actor.scope.customerId;
    if (customerRef === null || customerRef === undefined) throw validationIssue('customerId', 'Required', 'invalid_type');
    const terms = await this.customers.forCustomer(actor.scope, customerRef);
    if (!terms) throw new AppError('invalidCustomer');
    const managementType = managementTypeOnCreate(editor, input.managementType);
    const key = monitorKeyOf(input.key);
    assertMayCreate(editor, terms);
    const catalogue = this.locations.catalogue;
    // Only a create without locations needs to know which are served; only one with them, which are known.
    const defaults =
      input.locations === undefined ? defaultLocations(catalogue, await this.locations.served.live(this.clock.now())) : catalogue;
    const known = await this.knownTo(actor.scope.organizationId, input);
    const privateCodes = await this.locations.known.privateCodesFor(actor.scope.organizationId);
    const plan = planMonitor(planContextOf(kind, terms, known, defaults, privateCodes), null, input);
    await this.vet(plan, privateCodes);
    const now = this.clock.now();
    const monitor = new Monitor({
      publicId: this.ids.uuid(),
      organizationId: actor.scope.organizationId,
      customerId: terms.customerId,
      kind,
      managementType,
      key,
      state: plan.state,
      createdByUserId: actor.userId,
      now,
    });
    this.finish(monitor, plan, now);
    return this.tx.run(async (tx) => {
      await this.monitors.lockCustomer(actor.scope, terms.customerId, tx);
      // Read on the transaction's connection, after its lock: a pool read here would wait for a second connection while holding one.
      const fresh = await this.customers.forCustomerIn(actor.scope, terms.customerId, tx);
      if (!fresh) throw new AppError('invalidCustomer');
      const counts = await this.monitors.countForCustomer(actor.scope, terms.customerId, tx);
      if (managementType === 'self_service') assertSelfServiceRoom(counts.selfService, fresh);
      const decision = decideMonitorQuota({
        monitorCount: counts.total,
        tiers: fresh.quotaTiers,
        currentTierIndex: fresh.currentTierIndex,
        autoUpgrade: fresh.autoQuotaUpgrade,
        viaAgent: actor.kind === 'agent',
        allowPaidQuotaUpgrade: input.allowPaidQuotaUpgrade === true,
      });
      if (decision.kind === 'upgrade') await this.customers.upgradeQuotaTier(actor.scope, terms.customerId, fresh.currentTierIndex, tx);
      await this.setDependencies(actor, monitor, input.dependsOn, now, tx);
      return this.monitors.add(monitor, tx);
    });
  }

  /**
   * Applies a partial update; `managementType` in the input flips the class (organization admins
   * only). `outer`: the transaction it runs inside (an approved change request's), whose connection
   * its first reads use, or null.
   */
  async update(
    actor: Actor,
    monitor: Monitor,
    input: MonitorInput & DependencyInput & { managementType?: ManagementType },
    outer: Transaction | null,
  ): Promise<Monitor> {
    const key = monitorKeyOf(input.key);
    const editor = editorOf(actor);
    const terms = await this.termsOf(monitor, outer);
    assertMayEdit(editor, monitor.managementType, terms);
    const nextClass = input.managementType ?? monitor.managementType;
    if (nextClass !== monitor.managementType) assertMayChangeManagementType(editor);
    const { plan, privateCodes } = await this.planUpdate(monitor, terms, input);
    await this.vet(plan, privateCodes);
    return this.tx.run(async (tx) => {
      const scope = organizationScope(monitor.organizationId);
      const current = await this.monitors.findByRefIn(scope, monitor.kind, monitor.publicId, tx);
      if (!current) throw new AppError(monitor.kind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
      if (current.version !== monitor.version) throw new AppError('conflict');
      if (nextClass === 'self_service' && current.managementType !== 'self_service') {
        await this.monitors.lockCustomer(scope, current.customerId, tx);
        assertSelfServiceRoom((await this.monitors.countForCustomer(scope, current.customerId, tx)).selfService, terms);
      }
      const now = this.clock.now();
      current.apply(plan.state, now);
      if (nextClass !== current.managementType) current.changeManagementType(nextClass, now);
      if (key !== undefined && key !== current.key) current.changeKey(key, now);
      this.finish(current, plan, now);
      await this.setDependencies(actor, current, input.dependsOn, now, tx);
      await this.monitors.save(current, tx);
      return current;
    });
  }

  /** Checks an update as PATCH would (codes and target vetting) without applying it: for change requests. */
  async validateUpdate(monitor: Monitor, input: MonitorInput): Promise<void> {
    const terms = await this.termsOf(monitor, null);
    const { plan, privateCodes } = await this.planUpdate(monitor, terms, input);
    await this.vet(plan, privateCodes);
  }

  /** `tx`: the caller's transaction to join (an approved change request's), if any. */
  async remove(actor: Actor, monitor: Monitor, tx: Transaction): Promise<void> {
    assertMayDelete(editorOf(actor), monitor.managementType, await this.termsOf(monitor, tx));
    await this.monitors.remove(monitor, tx);
  }

  /** `tx`: the transaction whose work reads them (on its connection), or null outside one (the pool). */
  async termsOf(monitor: Monitor, tx: Transaction | null): Promise<MonitorCustomerTerms> {
    const scope = organizationScope(monitor.organizationId);
    const terms = await (tx
      ? this.customers.forCustomerIn(scope, monitor.customerId, tx)
      : this.customers.forCustomer(scope, monitor.customerId));
    if (!terms) throw new AppError(monitor.kind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
    return terms;
  }

  /**
   * Targets are vetted by the service's policy, except for a monitor checked only from private
   * locations: the organization's own probes check it, each under its owner's policy (which the
   * service cannot widen), so a name only their network resolves and an address only it may reach
   * are theirs to allow; the service checks the spelling alone.
   */
  private async vet(plan: MonitorPlan, privateCodes: readonly string[]): Promise<void> {
    await vetTargets(isCheckedOnlyFrom(plan.state.locations, privateCodes) ? SPELLING_ONLY : this.policy, plan.targets);
  }

  private async planUpdate(monitor: Monitor, terms: MonitorCustomerTerms, input: MonitorInput) {
    const known = await this.knownTo(monitor.organizationId, input);
    const privateCodes = await this.locations.known.privateCodesFor(monitor.organizationId);
    return { plan: planMonitor(planContextOf(monitor.kind, terms, known, known, privateCodes), monitor.state(), input), privateCodes };
  }

  /** The codes sent locations are checked against: asked only when locations are sent. */
  private async knownTo(organizationId: number, input: MonitorInput): Promise<readonly string[]> {
    return input.locations === undefined ? this.locations.catalogue : this.locations.known.codesFor(organizationId);
  }

  /**
   * Sets the monitor's dependencies when the input names them (see decideDependencies), under the
   * organization's dependency lock: the graph read is the one the change is judged against.
   */
  private async setDependencies(
    actor: Actor,
    monitor: Monitor,
    refs: readonly string[] | undefined,
    now: Date,
    tx: Transaction,
  ): Promise<void> {
    if (refs === undefined || (refs.length === 0 && monitor.dependsOnIds.length === 0)) return;
    const { organizationId } = monitor;
    await this.dependencies.lock(organizationId, tx);
    const targets = refs.length === 0 ? new Map() : await this.dependencies.targets(organizationId, refs, tx);
    const ids = decideDependencies({
      monitor: {
        id: monitor.id ?? 0,
        publicId: monitor.publicId,
        organizationId,
        customerId: monitor.customerId,
        dependsOn: monitor.dependsOnIds,
      },
      refs,
      resolve: (ref) => targets.get(ref),
      organizationWide: actor.scope.customerId === null,
      graph: refs.length === 0 ? new Map() : await this.dependencies.graph(organizationId, tx),
    });
    monitor.dependOn(ids, now);
  }

  private finish(monitor: Monitor, plan: MonitorPlan, now: Date): void {
    if (plan.needsHeartbeatToken) monitor.issueHeartbeatToken(this.secrets.generate('hb_'));
    this.applyCredentials(monitor, plan.credentials, now);
  }

  private applyCredentials(monitor: Monitor, change: CredentialsChange, now: Date): void {
    if (change.kind === 'clear' && monitor.credentialsCiphertext !== null) monitor.setCredentials(null, now);
    if (change.kind === 'set')
      monitor.setCredentials(this.cipher.encrypt(JSON.stringify(change.value), `monitor:${monitor.publicId}`), now);
  }
}
