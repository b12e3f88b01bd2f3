/** A job the host runs on its job system: thin, it calls a use case. */
export interface JobDefinition {
  readonly name: string;
  /** Interval for a recurring job (Agenda/human-interval syntax: '1 hour', '5 minutes'). */
  readonly every?: string;
  run(): Promise<void>;
}
