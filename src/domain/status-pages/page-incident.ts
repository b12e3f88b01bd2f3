import { AppError } from '../shared/app-error';

/** The steps of incident communication, as Atlassian Statuspage and Better Stack name them. */
export const UPDATE_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type UpdateStatus = (typeof UPDATE_STATUSES)[number];

export interface PageIncidentUpdate {
  readonly id: number;
  readonly status: UpdateStatus;
  readonly message: string;
  readonly createdAt: Date;
}

export interface PageIncidentProps {
  id: number;
  publicId: string;
  pageId: number;
  /** The service incident it tells about (automatic or manual); null for an incident declared on the page only. */
  incidentId: number | null;
  /** The service incident's public id (read with it; null with incidentId). */
  incidentPublicId: string | null;
  title: string;
  status: UpdateStatus;
  /** Component keys (`type:id`) the incident affects; shown beside the components. */
  componentKeys: string[];
  updates: PageIncidentUpdate[];
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
}

/**
 * What a page tells visitors about one incident: a title and its updates, newest last. Each update
 * moves the status; `resolved` closes it (a later update reopens it: the problem came back).
 */
export class PageIncident implements PageIncidentProps {
  id!: number;
  publicId!: string;
  pageId!: number;
  incidentId!: number | null;
  incidentPublicId!: string | null;
  title!: string;
  status!: UpdateStatus;
  componentKeys!: string[];
  updates!: PageIncidentUpdate[];
  createdAt!: Date;
  updatedAt!: Date;
  resolvedAt!: Date | null;
  /** The optimistic version of the row: a save names the one it read. */
  version = 1;

  constructor(props: PageIncidentProps) {
    Object.assign(this, props);
  }

  static open(
    props: Omit<PageIncidentProps, 'id' | 'status' | 'updates' | 'createdAt' | 'updatedAt' | 'resolvedAt'>,
    now: Date,
  ): PageIncident {
    if (props.title.trim() === '') throw new AppError('validationFailed', { field: 'title' }, 'title is required');
    return new PageIncident({ ...props, id: 0, status: 'investigating', updates: [], createdAt: now, updatedAt: now, resolvedAt: null });
  }

  get isOpen(): boolean {
    return this.status !== 'resolved';
  }

  /** Adds an update (id 0 until stored) and answers it. */
  post(status: UpdateStatus, message: string, now: Date): PageIncidentUpdate {
    if (message.trim() === '') throw new AppError('validationFailed', { field: 'message' }, 'message is required');
    const update = { id: 0, status, message, createdAt: now };
    this.updates = [...this.updates, update];
    this.status = status;
    this.resolvedAt = status === 'resolved' ? now : null;
    this.updatedAt = now;
    return update;
  }
}
