import { z } from 'zod';

/** A WhatsApp number as the numbers screen shows it (spec §3; Meta's field names). */
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
  })
  .meta({ id: 'PhoneNumber' });

export const PhoneNumberListResponseSchema = z
  .object({ data: z.array(PhoneNumberSchema) })
  .meta({ id: 'PhoneNumberListResponse' });

export type PhoneNumber = z.infer<typeof PhoneNumberSchema>;
