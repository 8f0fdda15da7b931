import { z } from 'zod';

/** `GET /healthz`: the process is alive. It never touches the database, so a database outage restarts nothing. */
export const LivenessResponseSchema = z
  .object({
    status: z.literal('ok'),
  })
  .meta({ id: 'LivenessResponse' });

/** `GET /readyz`: whether this process can serve now (database reachable, every shipped migration applied). */
export const ReadinessResponseSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['up', 'down']),
    /** 'behind': a migration this build ships is not applied yet (run `herald migrate`). */
    migrations: z.enum(['current', 'behind', 'unknown']),
    /** Why the process is not ready, in plain words; null when it is. */
    reason: z.string().nullable(),
    /** When the job worker last proved it runs (ISO 8601), or null before its first heartbeat. */
    last_worker_heartbeat: z.string().nullable(),
  })
  .meta({ id: 'ReadinessResponse' });

export type LivenessResponse = z.infer<typeof LivenessResponseSchema>;
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>;
