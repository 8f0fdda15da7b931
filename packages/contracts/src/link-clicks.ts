import { z } from 'zod';

/**
 * Herald's tracked links. A template's dynamic URL button that points at `{PUBLIC_URL}/l/{{1}}` is a tracked
 * link: every recipient of a broadcast gets their own `{{1}}`, Herald's redirect records the first click and
 * sends the browser on (302) to the broadcast's link destination. Meta's own click webhook
 * (`marketing_messages_link_click`, Marketing Messages API only) names no person or message; its `click_id`,
 * which Meta appends to the URL the person opens, is how Herald ties it to the recipient (decision 091).
 */
export const TRACKED_LINK_PATH = '/l/';

/** The URL a tracked button starts with, e.g. `https://herald.example.com/l/`. */
export function trackedLinkPrefix(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${TRACKED_LINK_PATH}`;
}

/** What a template's URL button holds to be a tracked link: the prefix and Meta's one variable. */
export function trackedButtonUrl(prefix: string): string {
  return `${prefix}{{1}}`;
}

/**
 * Index (in the BUTTONS component) of the template's tracked URL button, or null when it has none. Compared
 * without case on the scheme and host, as browsers do.
 */
export function trackedButtonIndex(
  components: ReadonlyArray<Record<string, unknown>>,
  prefix: string,
): number | null {
  const wanted = trackedButtonUrl(prefix).toLowerCase();
  for (const component of components) {
    if (String(component.type ?? '').toUpperCase() !== 'BUTTONS') continue;
    const buttons = Array.isArray(component.buttons)
      ? (component.buttons as Array<Record<string, unknown>>)
      : [];
    const index = buttons.findIndex(
      (b) => String(b.type ?? '').toUpperCase() === 'URL' && String(b.url ?? '').toLowerCase() === wanted,
    );
    if (index >= 0) return index;
  }
  return null;
}

export const LINK_MESSAGES = {
  destinationRequired: 'Enter where the tracked link leads (a web address starting with https://)',
  destinationInvalid: 'Enter a web address starting with https:// or http://',
  destinationUnused: 'This template has no tracked link: leave the link destination empty',
  linkGone: 'This link is not valid or has expired.',
  testLink:
    'This message was a test send. In a broadcast, this button takes each recipient to the broadcast’s link destination, and Herald records their first click.',
} as const;

/** Where a broadcast's tracked link leads: an http(s) address, at most 2,000 characters. */
export const LinkDestinationSchema = z
  .string({ message: LINK_MESSAGES.destinationInvalid })
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { message: LINK_MESSAGES.destinationInvalid },
  );

/** GET /broadcast/links/: what a template's URL button holds to count clicks. */
export const LinkSettingsResponseSchema = z
  .object({
    /** e.g. `https://herald.example.com/l/`. */
    tracked_link_prefix: z.string(),
    /** The button URL to use in a template: the prefix and `{{1}}`. */
    tracked_button_url: z.string(),
  })
  .meta({ id: 'LinkSettings' });
export type LinkSettingsResponse = z.infer<typeof LinkSettingsResponseSchema>;

export const CLICK_DEFINITIONS = {
  clicked: 'Recipients who opened the broadcast’s tracked link, each counted once at their first click.',
  click_rate: 'Recipients who clicked ÷ recipients whose message was delivered (delivered or read).',
} as const;

/** Click rate, 0–100 with one decimal; null when nothing was delivered. */
export function clickRate(clicked: number, deliveredOrRead: number): number | null {
  return deliveredOrRead === 0
    ? null
    : Math.round((Math.min(clicked, deliveredOrRead) / deliveredOrRead) * 1000) / 10;
}
