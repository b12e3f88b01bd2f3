import { AppError } from '../../domain/shared/app-error';
import { requireAction, type Actor } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import type { IncidentRepository } from './ports';

/** Deletes a manual incident with its timeline; monitor-generated ones answer notManualIncident. */
export class DeleteIncident {
  constructor(
    private readonly incidents: IncidentRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    requireAction(actor, 'incident.delete');
    incident.assertDeletable();
    await this.transactions.run((tx) => this.incidents.remove(incident, tx));
  }
}
