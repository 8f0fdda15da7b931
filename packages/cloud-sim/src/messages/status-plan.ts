export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusSettings {
  delaysMs: { sent: number; delivered: number; read: number };
  /** Share of messages delivered (the rest stay `sent`, as to a phone that is off). */
  deliveredRate: number;
  /** Share of delivered messages that are read. */
  readRate: number;
  /** Share of statuses sent twice (the copy in a later webhook). */
  duplicateRate: number;
  /** Share of messages whose last two statuses arrive in swapped order (read before delivered…). */
  reorderRate: number;
  /** Statuses due within one window go out together. */
  batchWindowMs: number;
}

export interface PlannedStatus {
  /** When the webhook goes out (Unix ms). */
  due: number;
  status: StatusName;
  /** The event's own time (Unix s), which reordering does not change. */
  timestamp: number;
}

/** The statuses one accepted message will report, and when; all chance comes from `random`. */
export function planStatuses(
  acceptedAt: number,
  undeliverable: boolean,
  settings: StatusSettings,
  random: () => number = Math.random,
): PlannedStatus[] {
  const at = (status: StatusName, delay: number): PlannedStatus => ({
    due: acceptedAt + delay,
    status,
    timestamp: Math.floor((acceptedAt + delay) / 1000),
  });
  const { delaysMs } = settings;
  const plan: PlannedStatus[] = [];
  if (undeliverable) {
    plan.push(at('failed', delaysMs.sent));
  } else {
    plan.push(at('sent', delaysMs.sent));
    if (random() < settings.deliveredRate) {
      plan.push(at('delivered', Math.max(delaysMs.sent, delaysMs.delivered)));
      if (random() < settings.readRate) {
        plan.push(at('read', Math.max(delaysMs.sent, delaysMs.delivered, delaysMs.read)));
      }
    }
  }
  const last = plan.at(-1);
  const before = plan.at(-2);
  if (last && before && settings.reorderRate > 0 && random() < settings.reorderRate) {
    // Swap when they are sent, not what they say: the later event arrives first, and a window apart.
    const early = before.due;
    before.due = Math.max(last.due, early + settings.batchWindowMs + 1);
    last.due = early;
  }
  const copies =
    settings.duplicateRate > 0
      ? plan
          .filter(() => random() < settings.duplicateRate)
          .map((p) => ({ ...p, due: p.due + settings.batchWindowMs + 1 }))
      : [];
  return [...plan, ...copies];
}
