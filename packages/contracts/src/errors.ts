import { z } from 'zod';

/** One problem with one field of a request: `field` is a dotted path such as `body.email`. */
export const FieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
});

/**
 * The one error shape of every 4xx the API produces on its own (the spec's own shapes, where it names
 * them, are documented on their routes). 5xx answers carry only `detail`, never internals.
 */
export const ErrorResponseSchema = z
  .object({
    detail: z.string(),
    /** The same text as `detail`: the spec's screens read `message` on some calls (sign-up, connect). */
    message: z.string().optional(),
    errors: z.array(FieldErrorSchema).optional(),
    /** The request's id (also the `x-request-id` header): the log lines of this request carry it as `reqId`. */
    request_id: z.string().optional(),
  })
  .meta({ id: 'ErrorResponse' });

export type FieldError = z.infer<typeof FieldErrorSchema>;
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
