import { AcknowledgeImIncident } from '../../../src/application/incident-management/acknowledge-im-incident';
import { AddImIncidentResponder } from '../../../src/application/incident-management/add-im-incident-responder';
import { BulkImIncidentAction } from '../../../src/application/incident-management/bulk-im-incident-action';
import { ChangeImIncidentStatus } from '../../../src/application/incident-management/change-im-incident-status';
import { CreateImIncident } from '../../../src/application/incident-management/create-im-incident';
import { GetImIncident } from '../../../src/application/incident-management/get-im-incident';
import { MergeImIncidents } from '../../../src/application/incident-management/merge-im-incidents';
import { ResolveImIncident } from '../../../src/application/incident-management/resolve-im-incident';
import { SnoozeImIncident } from '../../../src/application/incident-management/snooze-im-incident';
import type { Actor } from '../../../src/application/shared/actor';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { ManualClock } from '../manual-clock';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import { FakeDirectDeliveries } from '../fakes/notifications-fakes';
import {
  FakeEscalationPolicies,
  FakeImCustomers,
  FakeImIncidents,
  FakeImResponders,
  FakeImTeams,
} from '../fakes/incident-management-fakes';
import { FakeContactMethods } from '../fakes/on-call-fakes';

export interface IncidentManagementWorldOptions {
  /** The clock's start (the ManualClock's default start). */
  readonly now?: Date | string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
}

/**
 * Incident management's incidents on their fakes, wired as the composition root wires them: the
 * incident store, the team, policy, customer and responder directories (all empty: fill them on the
 * fakes), the direct deliveries and contact methods a page goes out on, and the incident use cases.
 * `declare` creates an incident "Down" for an actor.
 */
export function anIncidentManagementWorld(options: IncidentManagementWorldOptions = {}) {
  const clock = new ManualClock(options.now);
  const tx = options.tx ?? immediateTransactions;
  const ids = sequentialIds();
  const incidents = new FakeImIncidents();
  const teams = new FakeImTeams();
  const policies = new FakeEscalationPolicies();
  const customers = new FakeImCustomers();
  const responders = new FakeImResponders();
  const deliveries = new FakeDirectDeliveries();
  const methods = new FakeContactMethods();
  const create = new CreateImIncident(incidents, teams, policies, customers, tx, ids, clock);
  return {
    clock,
    tx,
    ids,
    incidents,
    teams,
    policies,
    customers,
    responders,
    deliveries,
    methods,
    create,
    get: new GetImIncident(incidents),
    acknowledge: new AcknowledgeImIncident(incidents, tx, clock),
    changeStatus: new ChangeImIncidentStatus(incidents, teams, tx, clock),
    snooze: new SnoozeImIncident(incidents, teams, tx, clock),
    resolve: new ResolveImIncident(incidents, teams, tx, clock),
    bulk: new BulkImIncidentAction(incidents, teams, tx, clock),
    merge: new MergeImIncidents(incidents, teams, tx, clock),
    addResponder: new AddImIncidentResponder(incidents, teams, responders, deliveries, tx, clock, methods),
    /** An incident "Down" created by `actor`, with `input` on top. */
    declare: (actor: Actor, input: Record<string, unknown> = {}) => create.execute(actor, { title: 'Down', ...input }),
  };
}

export type IncidentManagementWorld = ReturnType<typeof anIncidentManagementWorld>;
