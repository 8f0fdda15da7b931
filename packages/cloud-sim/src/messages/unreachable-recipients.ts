/**
 * Recipients a test made unreachable (`POST /__sandbox/recipients/{number}` `{reachable: false}`), as a phone
 * that stays off: messages to them are accepted and `sent`, never delivered or read, whatever the configured
 * delivered share, so they wait out their time-to-live. Decided at acceptance, like the rest of a message's plan.
 */
export class UnreachableRecipients {
  private readonly recipients = new Set<string>();

  has(recipient: string): boolean {
    return this.recipients.size > 0 && this.recipients.has(recipient);
  }

  set(recipient: string, reachable: boolean): void {
    if (reachable) this.recipients.delete(recipient);
    else this.recipients.add(recipient);
  }

  clear(): void {
    this.recipients.clear();
  }

  /** For the state file and `/__sandbox/state`: the unreachable ones, in the order they were set. */
  list(): string[] {
    return [...this.recipients];
  }

  /** What a state file kept (absent in older files: everyone reachable). */
  restore(saved: string[] | undefined): void {
    this.recipients.clear();
    for (const recipient of saved ?? []) this.recipients.add(recipient);
  }
}
