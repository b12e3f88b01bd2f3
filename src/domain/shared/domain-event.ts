/**
 * What one context tells others: an event named (`kind`) and versioned by the context that publishes
 * it, with the envelope every event carries. Each publisher defines its events in its own domain
 * (`domain/<context>/events.ts`) as a union discriminated by `kind`, and a codec that writes them as
 * outbox rows and reads them back; the event catalogue is in docs/architecture.md.
 */
export interface DomainEvent<K extends string = string, V extends number = number> {
  readonly kind: K;
  readonly version: V;
  readonly organizationId: number;
  readonly occurredAt: Date;
}

/**
 * An event as the outbox row stores it: its kind (the `kind` column), a one-line text (the
 * `subject` and `body` columns) and the JSON payload, which always holds `kind`, `version`,
 * `organizationId`, `customerId`, `occurredAt` (ISO) and `summary` beside the event's own fields.
 */
export interface EventRecord {
  readonly organizationId: number;
  readonly kind: string;
  readonly summary: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A publisher's codec: its event kinds, how an event becomes a row, and how a row becomes its event again. */
export interface EventCodec<E extends DomainEvent> {
  readonly kinds: readonly E['kind'][];
  encode(event: E): EventRecord;
  /** Throws `EventRefused` when the payload is not an event of `kind` this codec knows. */
  decode(kind: E['kind'], payload: PayloadReader): E;
}

/** A row that is no event the reader knows: an unknown kind or version, or a payload that does not fit. */
export class EventRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'EventRefused';
  }
}

type Json = Readonly<Record<string, unknown>>;

/**
 * Reads an event's payload field by field, refusing (`EventRefused`) a field of the wrong type.
 * Rows written before events carried a version read as version 1.
 */
export class PayloadReader {
  constructor(
    readonly kind: string,
    private readonly payload: Json,
  ) {}

  get version(): number {
    const version = this.payload.version ?? 1;
    if (typeof version !== 'number' || !Number.isInteger(version)) throw this.refuse('version');
    return version;
  }

  /** Refuses a version the publisher does not define (today every event is version 1). */
  version1(): 1 {
    if (this.version !== 1) throw new EventRefused(`${this.kind}: version ${this.version} is unknown`);
    return 1;
  }

  string(field: string): string {
    const value = this.payload[field];
    if (typeof value !== 'string') throw this.refuse(field);
    return value;
  }

  stringOrNull(field: string): string | null {
    const value = this.payload[field] ?? null;
    if (value !== null && typeof value !== 'string') throw this.refuse(field);
    return value;
  }

  integer(field: string): number {
    const value = this.payload[field];
    if (typeof value !== 'number' || !Number.isInteger(value)) throw this.refuse(field);
    return value;
  }

  integerOrNull(field: string): number | null {
    return (this.payload[field] ?? null) === null ? null : this.integer(field);
  }

  date(field: string): Date {
    const at = new Date(this.string(field));
    if (Number.isNaN(at.getTime())) throw this.refuse(field);
    return at;
  }

  record(field: string): Json {
    const value = this.payload[field] ?? {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.refuse(field);
    return value as Json;
  }

  /** A nested object read the same way. */
  nested(field: string): PayloadReader {
    return new PayloadReader(`${this.kind}.${field}`, this.record(field));
  }

  array(field: string): readonly unknown[] {
    const value = this.payload[field];
    if (!Array.isArray(value)) throw this.refuse(field);
    return value;
  }

  oneOf<T extends string>(field: string, values: readonly T[]): T {
    const value = this.string(field);
    if (!(values as readonly string[]).includes(value)) throw this.refuse(field);
    return value as T;
  }

  private refuse(field: string): EventRefused {
    return new EventRefused(`${this.kind}: field ${field} is missing or of the wrong type`);
  }
}

/** The envelope's fields of a payload (what every event's row holds beside its own fields). */
export const envelopeOf = (event: DomainEvent, customerId: number | null, summary: string) => ({
  kind: event.kind,
  version: event.version,
  organizationId: event.organizationId,
  customerId,
  occurredAt: event.occurredAt.toISOString(),
  summary,
});
