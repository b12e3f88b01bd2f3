import { z } from 'zod';
import {
  CHAIN_LIMITS,
  CHAIN_METHODS,
  EXTRACTION_SOURCES,
  HEADER_OPS,
  MATCH_OPS,
  VARIABLE_NAME,
} from '../../../domain/checks/api-chain/chain-definition';
import { HEADER_NAME, requestHeadersSchema } from './request-headers.schema';

const Scalar = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

const StepHeaders = requestHeadersSchema();

export const ChainExtractionSchema = z
  .object({
    variable: z.string().regex(VARIABLE_NAME).meta({ description: 'Used by later steps as {{variable}}' }),
    source: z.enum(EXTRACTION_SOURCES),
    expression: z.string().min(1).max(500).meta({
      description: "jsonPath: a path such as $.data.token or $.items[0]['id']; header: the header's name; regex: a pattern over the body",
    }),
    group: z
      .number()
      .int()
      .min(0)
      .max(9)
      .optional()
      .meta({ description: 'regex only: the capture group (default 1, or 0 without groups)' }),
  })
  .strict()
  .meta({ id: 'ApiChainExtraction' });

export const ChainAssertionSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('status'), equals: z.number().int().min(100).max(599) }).strict(),
    z
      .object({ type: z.literal('jsonPath'), path: z.string().min(1).max(500), op: z.enum(MATCH_OPS), value: Scalar })
      .strict()
      .meta({ description: 'equals compares as text; contains: a substring, or an element of an array; matches: a regular expression' }),
    z
      .object({
        type: z.literal('header'),
        name: z.string().regex(HEADER_NAME),
        op: z.enum(HEADER_OPS),
        value: z.string().max(1000).optional(),
      })
      .strict(),
    z.object({ type: z.literal('responseTime'), maxMs: z.number().int().min(1).max(60_000) }).strict(),
  ])
  .meta({ id: 'ApiChainAssertion' });

export const ChainStepSchema = z
  .object({
    name: z.string().min(1).max(100),
    method: z.enum(CHAIN_METHODS).optional().meta({ description: 'Default GET' }),
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({
        description:
          'A public http(s) URL (invalidUrl naming steps[i].url); {{variable}} and {{secrets.NAME}} may appear in its path and query, ' +
          'not in its scheme, host or port. Redirects are not followed.',
      }),
    headers: StepHeaders.optional().meta({ description: 'Values may use {{variable}} and {{secrets.NAME}}' }),
    body: z.string().max(65536).nullable().optional().meta({ description: 'May use {{variable}} and {{secrets.NAME}}' }),
    extract: z.array(ChainExtractionSchema).max(CHAIN_LIMITS.maxExtractionsPerStep).optional(),
    assertions: z
      .array(ChainAssertionSchema)
      .max(CHAIN_LIMITS.maxAssertionsPerStep)
      .optional()
      .meta({ description: 'None, or none of type status: the step must answer 2xx' }),
  })
  .strict()
  .meta({ id: 'ApiChainStep' });

export const chainFields = {
  steps: z
    .array(ChainStepSchema)
    .min(1)
    .max(CHAIN_LIMITS.maxSteps)
    .optional()
    .meta({
      description:
        `API check chain, required for api_chain: 1 to ${CHAIN_LIMITS.maxSteps} HTTP steps run in order, stopping at the first ` +
        'that fails (the finding names it: "Step 2 (read profile): ..."). The whole chain runs within timeoutSeconds; at most ' +
        `${CHAIN_LIMITS.maxResponseBytes} response bytes are read per step. Rules beyond the shape (distinct names, variables ` +
        'extracted by an earlier step, secrets that exist, JSON paths, regular expressions) answer validationFailed with the ' +
        "issue's path (['steps', 2, 'assertions', 0, 'path'])",
    }),
  secrets: z
    .record(z.string().regex(VARIABLE_NAME), z.string().min(1).max(CHAIN_LIMITS.maxSecretLength))
    .refine((s) => Object.keys(s).length <= CHAIN_LIMITS.maxSecrets, `At most ${CHAIN_LIMITS.maxSecrets} secrets`)
    .nullable()
    .optional()
    .meta({
      description:
        'api_chain: values steps use as {{secrets.NAME}}, stored encrypted and never returned (secretNames lists the names); ' +
        'redacted from every result, message and evidence. Sending secrets replaces the stored set; null removes it.',
    }),
};
