import { z } from 'zod';

/** A WhatsApp number as the numbers screen shows it (Meta's field names). */
export const PhoneNumberSchema = z
  .object({
    id: z.string(),
    verified_name: z.string(),
    display_phone_number: z.string(),
    code_verification_status: z.string().nullable(),
    quality_rating: z.string().nullable(),
    platform_type: z.string().nullable(),
    throughput: z.object({ level: z.string() }).nullable(),
    last_onboarded_time: z.string().nullable(),
    messaging_limit_tier: z.string().nullable(),
    /** Meta's number status: CONNECTED, FLAGGED, RESTRICTED, PENDING, …; null if not read. */
    status: z.string().nullable(),
  })
  .meta({ id: 'PhoneNumber' });

export const PhoneNumberListResponseSchema = z
  .object({ data: z.array(PhoneNumberSchema) })
  .meta({ id: 'PhoneNumberListResponse' });

export type PhoneNumber = z.infer<typeof PhoneNumberSchema>;

/** Statuses of a number that cannot send a broadcast, and why, in the words New broadcast shows. */
const UNSENDABLE: Record<string, string> = {
  FLAGGED: 'WhatsApp flagged this number for low quality; it cannot send broadcasts until it recovers.',
  RESTRICTED: 'WhatsApp restricted this number; it cannot start conversations for now.',
  RATE_LIMITED: 'WhatsApp is rate-limiting this number; try again later.',
  BANNED: 'WhatsApp banned this number.',
  PENDING: 'This number is not connected yet: finish its registration first.',
  DISCONNECTED: 'This number is disconnected: register it again first.',
  UNVERIFIED: 'This number is not verified yet: finish its registration first.',
  MIGRATED: 'This number moved to another account.',
  DELETED: 'This number was deleted.',
};

/**
 * Whether a number may be chosen to send from (CONNECTED only, as Meta documents), and a warning for a RED
 * quality rating (it may be flagged, and its broadcasts paused, soon). A number whose status Herald has not read
 * yet is allowed: Meta refuses a send it cannot make.
 */
export function numberSendability(number: Pick<PhoneNumber, 'status' | 'quality_rating'>): {
  sendable: boolean;
  reason: string | null;
  warning: string | null;
} {
  const status = number.status?.toUpperCase() ?? null;
  if (status && status !== 'CONNECTED') {
    return {
      sendable: false,
      reason: UNSENDABLE[status] ?? `This number is ${status.toLowerCase()} and cannot send.`,
      warning: null,
    };
  }
  const warning =
    number.quality_rating?.toUpperCase() === 'RED'
      ? 'This number’s quality rating is low (red): more blocks or reports may get it flagged and its broadcasts stopped.'
      : null;
  return { sendable: true, reason: null, warning };
}
