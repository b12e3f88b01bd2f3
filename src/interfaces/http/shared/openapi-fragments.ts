import { z } from 'zod';
import 'zod-openapi';
import type { ErrorCode } from '../../../domain/shared/error-codes';

export const ErrorEnvelopeSchema = z.object({
  error: z.literal(true),
  url: z.string().meta({ description: 'The failed request URL' }),
  statusCode: z.number().int(),
  statusMessage: z.string(),
  message: z.string().meta({ description: 'Same as statusMessage' }),
  data: z.object({
    code: z.string().optional().meta({ description: 'Stable error code' }),
    retryAfter: z.number().int().optional().meta({ description: 'Seconds, on 429' }),
  }).catchall(z.unknown()).optional(),
}).meta({ id: 'ErrorEnvelope', description: 'Envelope of every non-2xx response' });

export const errorResponse = (codes: ErrorCode[]) => ({
  description: `Error. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}`,
  content: { 'application/json': { schema: ErrorEnvelopeSchema } },
});
