/**
 * One timer per template under review; a new review (after an edit) replaces the old one. Timers are
 * unref'd and all cleared on close, so a sandbox never keeps a process alive on their account.
 */
export class ReviewScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly delayMs: () => number,
    private readonly onDue: (templateId: string) => void,
  ) {}

  schedule(templateId: string): void {
    this.cancel(templateId);
    const timer = setTimeout(() => {
      this.timers.delete(templateId);
      this.onDue(templateId);
    }, this.delayMs());
    timer.unref();
    this.timers.set(templateId, timer);
  }

  cancel(templateId: string): void {
    const timer = this.timers.get(templateId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(templateId);
  }

  cancelAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  pending(): string[] {
    return [...this.timers.keys()];
  }
}
