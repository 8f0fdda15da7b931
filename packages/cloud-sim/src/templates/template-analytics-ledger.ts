import type { StatusEvent } from '../messages/status-payload';

/** Meta's two kinds of button in `clicked[]` (Analytics guide, template analytics). */
export type ClickedButtonType = 'url_button' | 'quick_reply_button';

/** One day of one template: the counts template analytics answers. */
export interface TemplateDay {
  templateId: string;
  wabaId: string;
  /** 00:00 UTC of the day (Unix s): Meta buckets template analytics by UTC day. */
  day: number;
  sent: number;
  delivered: number;
  read: number;
  clicks: Array<{ type: ClickedButtonType; buttonContent: string; count: number }>;
}

/** What state.json keeps of the ledger: every counted day, and which statuses each message already counted. */
export interface SavedTemplateAnalytics {
  days: TemplateDay[];
  /** wamid → the statuses counted for it (a bit each), so a duplicate after a restart is not counted again. */
  counted: Array<[string, number]>;
}

export const DAY_SECONDS = 24 * 60 * 60;
export const dayOf = (unixSeconds: number) => Math.floor(unixSeconds / DAY_SECONDS) * DAY_SECONDS;

const STATUS_BITS = { sent: 1, delivered: 2, read: 4 } as const;
type CountedStatus = keyof typeof STATUS_BITS;

const dayKey = (templateId: string, day: number) => `${templateId}\u0000${day}`;

/**
 * The counts behind template analytics: filled from the statuses the sandbox posts (each message once per
 * status, a duplicated webhook is not counted twice) and from the button taps tests make. Each metric falls
 * in the UTC day of its own event (a message sent at 23:59 and read at 00:01 counts on two days): Meta does not
 * say which time it buckets by, and this is what a per-day event count means. Kept in state.json.
 */
export class TemplateAnalyticsLedger {
  private readonly days = new Map<string, TemplateDay>();
  private readonly counted = new Map<string, number>();

  /** Called for every status the sandbox posts; only template messages (they carry their template's id). */
  observe(event: StatusEvent): void {
    const { message, status } = event;
    if (message.templateId === undefined || !(status in STATUS_BITS)) return;
    const bit = STATUS_BITS[status as CountedStatus];
    const seen = this.counted.get(message.wamid) ?? 0;
    if (seen & bit) return;
    this.counted.set(message.wamid, seen | bit);
    this.dayFor(message.templateId, message.wabaId, event.timestamp)[status as CountedStatus] += 1;
  }

  /** A tap on one of a template's buttons: each tap counts, as Meta counts clicks rather than people. */
  recordClick(
    templateId: string,
    wabaId: string,
    type: ClickedButtonType,
    buttonContent: string,
    unixSeconds: number,
  ): void {
    const day = this.dayFor(templateId, wabaId, unixSeconds);
    const entry = day.clicks.find((c) => c.type === type && c.buttonContent === buttonContent);
    if (entry) entry.count += 1;
    else day.clicks.push({ type, buttonContent, count: 1 });
  }

  /** The template's counted day starting at `day`, if anything happened on it. */
  find(templateId: string, day: number): TemplateDay | undefined {
    return this.days.get(dayKey(templateId, day));
  }

  save(): SavedTemplateAnalytics {
    return {
      days: [...this.days.values()].map((d) => ({ ...d, clicks: d.clicks.map((c) => ({ ...c })) })),
      counted: [...this.counted.entries()],
    };
  }

  /** Absent in state files older than template analytics: starts empty. */
  restore(saved: SavedTemplateAnalytics | undefined): void {
    this.clear();
    for (const day of saved?.days ?? []) this.days.set(dayKey(day.templateId, day.day), day);
    for (const [wamid, bits] of saved?.counted ?? []) this.counted.set(wamid, bits);
  }

  clear(): void {
    this.days.clear();
    this.counted.clear();
  }

  private dayFor(templateId: string, wabaId: string, unixSeconds: number): TemplateDay {
    const day = dayOf(unixSeconds);
    const key = dayKey(templateId, day);
    let entry = this.days.get(key);
    if (!entry) {
      entry = { templateId, wabaId, day, sent: 0, delivered: 0, read: 0, clicks: [] };
      this.days.set(key, entry);
    }
    return entry;
  }
}
