import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import {
  effectiveImRoute,
  IM_ROUTING_OFF,
  type ImRouteTarget,
  type ImRoutingSetting,
} from '../../domain/incident-management/monitor-routing';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { EscalationPolicyDirectory, ImCustomerDirectory, ImRoutingSettings, ImTeamDirectory, RoutedMonitor } from './ports';

export interface ImRoutingInput {
  enabled: boolean;
  teamId?: string | null;
  escalationPolicyId?: string | null;
}

export interface CustomerImRouting {
  readonly customerId: number;
  readonly setting: ImRoutingSetting;
}

export interface MonitorImRouting {
  readonly monitor: RoutedMonitor;
  /** The monitor's own setting; null = it inherits its customer's. */
  readonly override: ImRoutingSetting | null;
  readonly customer: ImRoutingSetting;
  /** Where its incidents go now (null: not routed). */
  readonly effective: ImRouteTarget | null;
}

interface Directories {
  readonly teams: ImTeamDirectory;
  readonly policies: EscalationPolicyDirectory;
  readonly customers: ImCustomerDirectory;
}

/** Missing and other organizations' customers alike answer customerNotFound. */
async function customerOf(customers: ImCustomerDirectory, organizationId: number, ref: string): Promise<number> {
  const id = await customers.resolve(organizationId, ref);
  if (id === null) throw new AppError('customerNotFound');
  return id;
}

async function monitorOf(settings: ImRoutingSettings, organizationId: number, ref: string): Promise<RoutedMonitor> {
  const monitor = await settings.findMonitor(organizationId, ref);
  if (!monitor) throw new AppError('monitorNotFound');
  return monitor;
}

/** The setting to store, once its ids are the organization's (the codes of IM incident create). */
async function validSetting(directories: Directories, organizationId: number, input: ImRoutingInput): Promise<ImRoutingSetting> {
  const teamId = input.teamId ?? null;
  const escalationPolicyId = input.escalationPolicyId ?? null;
  if (teamId !== null && !(await directories.teams.exists(organizationId, teamId))) throw new AppError('invalidTeamId');
  if (escalationPolicyId !== null && !(await directories.policies.exists(organizationId, escalationPolicyId))) {
    throw new AppError('imRoutingInvalidPolicyId');
  }
  return { enabled: input.enabled, teamId, escalationPolicyId };
}

async function monitorRouting(settings: ImRoutingSettings, organizationId: number, monitor: RoutedMonitor): Promise<MonitorImRouting> {
  const [override, customer] = await Promise.all([
    settings.monitor(organizationId, monitor.monitorId),
    settings.customer(organizationId, monitor.customerId),
  ]);
  return { monitor, override, customer: customer ?? IM_ROUTING_OFF, effective: effectiveImRoute(customer, override) };
}

/** A customer's routing of its monitors' incidents (off until set). */
export class GetCustomerImRouting {
  constructor(
    private readonly settings: ImRoutingSettings,
    private readonly customers: ImCustomerDirectory,
  ) {}

  async execute(actor: Actor, customerRef: string): Promise<CustomerImRouting> {
    const organizationId = actor.scope.organizationId;
    const customerId = await customerOf(this.customers, organizationId, customerRef);
    return { customerId, setting: (await this.settings.customer(organizationId, customerId)) ?? IM_ROUTING_OFF };
  }
}

/** Sets the default of a customer's monitors: routed into IM (to a team and policy) or not. Admins and editors (roleForbidden). */
export class SetCustomerImRouting {
  constructor(
    private readonly settings: ImRoutingSettings,
    private readonly directories: Directories,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, customerRef: string, input: ImRoutingInput): Promise<CustomerImRouting> {
    requireAction(actor, 'incidentRouting.update');
    const organizationId = actor.scope.organizationId;
    const customerId = await customerOf(this.directories.customers, organizationId, customerRef);
    const setting = await validSetting(this.directories, organizationId, input);
    await this.tx.run((tx) => this.settings.setCustomer(organizationId, customerId, setting, this.clock.now(), tx));
    return { customerId, setting };
  }
}

/** A monitor's routing: its override, its customer's default, and the route that results. */
export class GetMonitorImRouting {
  constructor(private readonly settings: ImRoutingSettings) {}

  async execute(actor: Actor, monitorRef: string): Promise<MonitorImRouting> {
    const organizationId = actor.scope.organizationId;
    return monitorRouting(this.settings, organizationId, await monitorOf(this.settings, organizationId, monitorRef));
  }
}

/** Overrides a monitor's routing (explicitly on with its own team and policy, or explicitly off), or, with null, inherits again. Admins and editors. */
export class SetMonitorImRouting {
  constructor(
    private readonly settings: ImRoutingSettings,
    private readonly directories: Directories,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, monitorRef: string, input: ImRoutingInput | null): Promise<MonitorImRouting> {
    requireAction(actor, 'incidentRouting.update');
    const organizationId = actor.scope.organizationId;
    const monitor = await monitorOf(this.settings, organizationId, monitorRef);
    const setting = input === null ? null : await validSetting(this.directories, organizationId, input);
    await this.tx.run((tx) => this.settings.setMonitor(organizationId, monitor.monitorId, setting, this.clock.now(), tx));
    return monitorRouting(this.settings, organizationId, monitor);
  }
}
