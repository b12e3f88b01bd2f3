import { ApiError } from './api-client';
import type { Change } from './plan';
import { identityOf } from './plan';
import { labelOf } from './render';
import type { ApplyContext } from './apply-context';
import { carryOutLinked } from './apply-linked';
import type { Actual } from './resources';

export interface ApplyOutcome {
  readonly done: number;
  readonly failed: number;
}

const PAST = { create: 'created', update: 'changed', delete: 'deleted' } as const;

/**
 * Carries a plan out in its order (tags before the monitors that carry them, deletes last and the
 * other way round), printing each result; a refusal is printed with the entry's file line and the
 * API's code, and the run goes on with the rest.
 */
export async function applyChanges(changes: readonly Change[], ctx: ApplyContext): Promise<ApplyOutcome> {
  let done = 0;
  let failed = 0;
  for (const change of changes) {
    try {
      await carryOut(change, ctx);
      done += 1;
      ctx.print(`${PAST[change.action]} ${labelOf(change)}`);
    } catch (error) {
      failed += 1;
      const where = change.desired ? ` (${change.desired.where()})` : '';
      const reason = error instanceof ApiError ? error.describe() : (error as Error).message;
      ctx.print(`failed to ${change.action} ${labelOf(change)}${where}: ${reason}`);
    }
  }
  ctx.print(`Apply: ${done} done, ${failed} failed.`);
  return { done, failed };
}

async function carryOut(change: Change, ctx: ApplyContext): Promise<void> {
  const { client } = ctx;
  if (change.type === 'tag') return carryOutTag(change, ctx);
  if (change.type === 'channel') return carryOutChannel(change, ctx);
  if (change.type === 'customField' || change.type === 'maintenanceWindow' || change.type === 'statusPage')
    return carryOutLinked(change, ctx);
  if (change.action === 'delete') return client.deleteMonitor(change.kind, change.actual!.id);
  const desired = change.desired!;
  const body: Record<string, unknown> = {};
  for (const field of change.fields)
    if (field.field !== 'tags') body[field.field] = ctx.resolve(desired.fields[field.field], desired, field.field);
  let id: string;
  if (change.action === 'create') {
    const created = await client.createMonitor(change.kind, {
      key: change.key,
      ...(change.customer ? { customerId: change.customer } : {}),
      ...body,
    });
    id = created.publicId;
    ctx.monitorIds.set(change.key, id);
  } else {
    id = change.actual!.id;
    if (Object.keys(body).length > 0) await client.updateMonitor(change.kind, id, body);
  }
  await retag(change, id, ctx);
}

/** A channel: created with its key and customer, changed by the fields that differ (config whole), deleted. */
async function carryOutChannel(change: Change, { client, resolve }: ApplyContext): Promise<void> {
  if (change.action === 'delete') return client.deleteChannel(change.actual!.id);
  const desired = change.desired!;
  const body: Record<string, unknown> = {};
  for (const field of change.fields) body[field.field] = resolve(desired.fields[field.field], desired, field.field);
  if (change.action === 'update') {
    await client.updateChannel(change.actual!.id, body);
    return;
  }
  await client.createChannel({ key: change.key, ...(change.customer ? { customerId: change.customer } : {}), ...body });
}

async function carryOutTag(change: Change, { client, tagIds }: ApplyContext): Promise<void> {
  if (change.action === 'delete') return client.deleteTag(change.actual!.id);
  const color = change.desired!.fields.color;
  if (change.action === 'update') {
    await client.updateTag(change.actual!.id, { color });
    return;
  }
  const created = await client.createTag({ name: change.key, color, customerId: change.customer });
  tagIds.set(identityOf(change), created.publicId);
}

/** Attaches the entry's tags the monitor lacks and detaches those the entry no longer names. */
async function retag(change: Change, id: string, ctx: ApplyContext): Promise<void> {
  const wanted = change.desired!.fields.tags as string[] | undefined;
  if (wanted === undefined) return;
  const had = ((change.actual as Actual | undefined)?.fields.tags as string[] | undefined) ?? [];
  const lower = (names: string[]) => new Set(names.map((n) => n.toLowerCase()));
  const [wantedSet, hadSet] = [lower(wanted), lower(had)];
  for (const name of had.filter((n) => !wantedSet.has(n.toLowerCase())))
    await ctx.client.detachTag(change.kind, id, tagIdOf(name, change.customer, ctx));
  for (const name of wanted.filter((n) => !hadSet.has(n.toLowerCase())))
    await ctx.client.attachTag(change.kind, id, tagIdOf(name, change.customer, ctx));
}

/** A tag name on a monitor of `customer`: that customer's tag, else the organization-wide one. */
function tagIdOf(name: string, customer: string | null, ctx: ApplyContext): string {
  const id =
    ctx.tagIds.get(identityOf({ type: 'tag', key: name, customer })) ??
    ctx.tagIds.get(identityOf({ type: 'tag', key: name, customer: null }));
  if (!id) throw new Error(`no tag named ${JSON.stringify(name)} for the monitor's customer or the organization`);
  return id;
}
