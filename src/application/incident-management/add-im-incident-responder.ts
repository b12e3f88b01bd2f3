import { AppError } from '../../domain/shared/app-error';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import { ACCOUNT_EMAIL_METHOD, pageRoutes } from '../../domain/incident-management/contact-method';
import type { DirectDeliveries } from '../notifications/ports';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { findImIncident } from './find-im-incident';
import type { ImIncidentRepository, ImResponderDirectory, ImTeamDirectory, ResponderContactMethods } from './ports';
import { mayPageResponders, requireTeamMembership } from './team-membership';

export interface AddResponderInput {
  readonly userId: string;
  readonly notify: boolean;
}

/**
 * Adds a responder to an open incident (a `responderAdded` timeline entry). Acting on the incident
 * needs membership of its team (as every change but acknowledging); paging the responder (notify)
 * needs more: an admin of the incident's team, or an organization or platform admin. The responder
 * must be an IM user of the organization (imUserNotEligible). The page goes to every enabled contact
 * method of the responder (the account e-mail by default) through the delivery ledger, enqueued in
 * the transaction that records the responder.
 */
export class AddImIncidentResponder {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly responders: ImResponderDirectory,
    private readonly deliveries: DirectDeliveries,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    /** Without it, the page goes to the account e-mail only. */
    private readonly methods: ResponderContactMethods | null = null,
  ) {}

  async execute(actor: Actor, ref: string, input: AddResponderInput): Promise<ImIncident> {
    return this.transactions.run(async (tx) => {
      const now = this.clock.now();
      const incident = await findImIncident(this.incidents, actor.scope, ref, tx);
      await requireTeamMembership(actor, incident, this.teams, tx);
      if (!incident.isOpen) throw new AppError('imIncidentAlreadyClosed', { status: incident.status });
      if (input.notify && !(await mayPageResponders(actor, incident, this.teams, tx))) throw new AppError('imTeamAdminRequired');
      const responder = await this.responders.eligibleIn(incident.organizationId, input.userId, tx);
      if (!responder) throw new AppError('imUserNotEligible', { userId: input.userId });
      incident.addResponder(input.userId, input.notify, actor.userId, now);
      await this.incidents.save(actor.scope, incident, tx);
      if (input.notify) {
        const methods = this.methods
          ? ((await this.methods.ofUsersIn(incident.organizationId, [input.userId], tx)).get(input.userId) ?? [])
          : [];
        await this.deliveries.enqueue(
          pageRoutes(responder.email, methods).map((route) => ({
            organizationId: incident.organizationId,
            customerId: incident.customerId,
            incidentId: incident.publicId,
            recipient: route.recipient,
            event: 'im.incident.responderAdded',
            subject: `[Responder] ${incident.title}`,
            text:
              `${responder.name}, you were added as a responder to an incident: ${incident.title}. ` +
              `Status ${incident.status}, opened ${incident.createdAt.toISOString()}. Incident ${incident.publicId}.`,
            data: { incidentId: incident.publicId, userId: input.userId, addedByUserId: actor.userId, contactMethodId: route.methodId },
            // Each request pages once per method (a retried delivery never pages twice; adding the responder again pages again).
            dedupKey:
              `im-responder:${incident.publicId}:${input.userId}:${incident.version}` +
              (route.methodId === ACCOUNT_EMAIL_METHOD ? '' : `:${route.methodId}`),
          })),
          now,
          tx,
        );
      }
      return incident;
    });
  }
}
