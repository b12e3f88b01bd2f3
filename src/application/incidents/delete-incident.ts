import { AppError } from '../../domain/shared/app-error';
import { requireAction, type Actor } from '../shared/actor';
import type { IncidentRepository } from './ports';

/** Deletes a manual incident with its timeline; monitor-generated ones answer notManualIncident. */
export class DeleteIncident {
  constructor(private readonly incidents: IncidentRepository) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const incident = await this.incidents.findByRef(actor.scope, id);
    if (!incident) throw new AppError('incidentNotFound');
    requireAction(actor, 'incident.delete');
    incident.assertDeletable();
    await this.incidents.remove(incident);
  }
}
