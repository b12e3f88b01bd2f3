import { z } from 'zod';
import 'zod-openapi';
import { ESCALATION_TARGET_TYPES, MAX_REPEATS } from '../../../domain/on-call/escalation-policy';
import { Description, Name, Ref } from './fields';

const Target = z
  .object({
    type: z.enum(ESCALATION_TARGET_TYPES).meta({
      description:
        '`user`: that user; `schedule`: whoever is on call in it; `team`: ' +
        "whoever is on call in the team's schedules, or every member when nobody is",
    }),
    id: Ref.meta({ description: 'User, schedule or team id of the organization' }),
  })
  .strict()
  .meta({ id: 'EscalationTarget' });

const Level = z
  .object({
    delayMinutes: z
      .number()
      .int()
      .min(1)
      .max(1440)
      .meta({ description: 'Minutes this level has to acknowledge before the next level is paged' }),
    targets: z.array(Target).min(1).max(10),
  })
  .strict()
  .meta({ id: 'EscalationLevel' });

export const CreatePolicyBody = z
  .object({
    name: Name,
    description: Description.default(null),
    levels: z.array(Level).min(1).max(10),
    repeatCount: z
      .number()
      .int()
      .min(0)
      .max(MAX_REPEATS)
      .default(0)
      .meta({ description: "How many more times the chain runs after the last level's delay passes unacknowledged" }),
  })
  .strict()
  .meta({ id: 'EscalationPolicyCreate' });

export const UpdatePolicyBody = z
  .object({
    name: Name.optional(),
    description: Description.optional(),
    levels: z.array(Level).min(1).max(10).optional().meta({ description: 'Replaces every level' }),
    repeatCount: z.number().int().min(0).max(MAX_REPEATS).optional(),
  })
  .strict()
  .meta({ id: 'EscalationPolicyUpdate' });

export const PolicySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    levels: z.array(
      z.object({
        delayMinutes: z.number(),
        targets: z.array(z.object({ type: z.enum(ESCALATION_TARGET_TYPES), id: z.string() })),
      }),
    ),
    repeatCount: z.number(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'EscalationPolicy' });
