import { z } from 'zod';

/** How far back WhatsApp's template analytics go, and so the range both click figures cover. */
export const TEMPLATE_CLICKS_DAYS = 90;

/** One button's taps as WhatsApp's template analytics count them (every tap, not people). */
export const TemplateButtonClicksSchema = z.object({
  /** 'url_button' or 'quick_reply_button', as Meta names them. */
  type: z.string(),
  /** The button's text. */
  button: z.string(),
  count: z.number().int(),
});

/**
 * GET /meta/templates/{id}/clicks/: a template's clicks over the last 90 days, two ways. WhatsApp's own count
 * (template analytics' `clicked`: taps on its buttons, every tap) and Herald's tracked links (people who opened
 * their link, once each, in broadcasts of the template). They differ by design: one counts taps, the other people.
 */
export const TemplateClicksResponseSchema = z
  .object({
    /** ISO 8601: the first day counted (00:00 UTC); the figures run from it to now. */
    from: z.string(),
    /** WhatsApp's count; null when it could not be read (`whatsapp_unavailable` says why) or was never asked. */
    whatsapp: z.object({ total: z.number().int(), buttons: z.array(TemplateButtonClicksSchema) }).nullable(),
    whatsapp_unavailable: z.string().nullable(),
    /** Herald's tracked links: distinct recipients who clicked, and the broadcasts they were in. */
    tracked: z.object({ people: z.number().int(), broadcasts: z.number().int() }),
  })
  .meta({ id: 'TemplateClicksResponse' });

export type TemplateButtonClicks = z.infer<typeof TemplateButtonClicksSchema>;
export type TemplateClicksResponse = z.infer<typeof TemplateClicksResponseSchema>;
