import { z } from 'zod';
import { BROADCAST_MESSAGES } from './broadcasts';

/** 'Send test' on New broadcast; its limits and words, shared by the server and the dialog. */
export const TEST_SEND = {
  /** Test sends per business account per minute. */
  perMinute: 10,
  toRequired: 'Enter the number to send the test to',
  noContact: 'Add a contact first: a test is sent with one contact’s values',
  rateLimited: (seconds: number) =>
    `Too many test messages: at most 10 a minute. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  overLimit: 'Your 24-hour messaging limit is reached: the test cannot be sent until it frees',
} as const;

/** POST /broadcast/test/: one message of the chosen template to one number; not a broadcast. */
export const BroadcastTestRequestSchema = z
  .object({
    template_id: z.coerce
      .number({ message: BROADCAST_MESSAGES.templateRequired })
      .int()
      .positive(BROADCAST_MESSAGES.templateRequired),
    /** Meta's id of the number to send from; absent means the account's first. */
    phone_number_id: z.string().trim().min(1, 'Choose a number to send from').max(64).optional(),
    /** The number to send the test to, with its country code. */
    to: z.string({ message: TEST_SEND.toRequired }).trim().min(1, TEST_SEND.toRequired).max(40),
    /** Whose values fill the template's variables; absent means the account's first contact. */
    contact_id: z
      .number({ message: 'must be a contact id' })
      .int()
      .positive('must be a contact id')
      .optional(),
  })
  .meta({ id: 'BroadcastTestRequest' });

export const BroadcastTestResponseSchema = z
  .object({
    /** Meta accepted the message (it is on its way); false: Meta refused it, `error` says why. */
    accepted: z.boolean(),
    wamid: z.string().nullable(),
    /** The number as sent (E.164). */
    to: z.string(),
    /** The contact whose values were used. */
    contact: z.object({ id: z.number().int(), name: z.string(), whatsapp_number: z.string() }),
    error: z
      .object({
        code: z.number().int().nullable(),
        /** Meta's own title. */
        title: z.string(),
        /** In plain words: what happened and what to do (failure-reasons.ts). */
        explanation: z.string(),
        action: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'BroadcastTestResponse' });

export type BroadcastTestRequest = z.infer<typeof BroadcastTestRequestSchema>;
export type BroadcastTestResponse = z.infer<typeof BroadcastTestResponseSchema>;
