import { z } from 'zod';

export const HealthResponseSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['up', 'down']),
    /** When the job worker last proved it runs (ISO 8601), or null before its first heartbeat. */
    last_worker_heartbeat: z.string().nullable(),
  })
  .meta({ id: 'HealthResponse' });

export type HealthResponse = z.infer<typeof HealthResponseSchema>;
