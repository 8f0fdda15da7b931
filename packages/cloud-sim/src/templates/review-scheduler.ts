/** A review waiting for its time: the template and when (Unix ms) the automatic review decides. */
export interface PendingReview {
  templateId: string;
  due: number;
}

/**
 * One timer per template under review; a new review (after an edit) replaces the old one. Timers are
 * unref'd and all cleared on close, so a sandbox never keeps a process alive on their account. Each
 * review's due time is kept so a restarted sandbox can still hold it (see persistence/).
 */
export class ReviewScheduler {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; due: number }>();

  constructor(
    private readonly delayMs: () => number,
    private readonly onDue: (templateId: string) => void,
  ) {}

  schedule(templateId: string): void {
    this.scheduleAt(templateId, Date.now() + this.delayMs());
  }

  /** A review at a set time; one already past decides at once (a review a restart interrupted). */
  scheduleAt(templateId: string, due: number): void {
    this.cancel(templateId);
    const timer = setTimeout(
      () => {
        this.timers.delete(templateId);
        this.onDue(templateId);
      },
      Math.max(0, due - Date.now()),
    );
    timer.unref();
    this.timers.set(templateId, { timer, due });
  }

  cancel(templateId: string): void {
    const entry = this.timers.get(templateId);
    if (entry !== undefined) clearTimeout(entry.timer);
    this.timers.delete(templateId);
  }

  cancelAll(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  pending(): string[] {
    return [...this.timers.keys()];
  }

  /** Every review still to come, with its time. */
  pendingWithDue(): PendingReview[] {
    return [...this.timers].map(([templateId, { due }]) => ({ templateId, due }));
  }
}
