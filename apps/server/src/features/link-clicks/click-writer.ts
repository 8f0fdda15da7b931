import type { Pool } from '../../db/pool';
import { recordFirstClicks } from '../broadcasts/index';

interface Click {
  accountId: number;
  messageId: number;
  clickId: string | null;
  resolve: (destination: string | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Records tracked-link clicks in batches: a click waits only for the statement that stores it, but while one
 * statement is in flight the clicks that arrive meanwhile gather into the next, so a burst costs one round trip
 * and one commit per batch rather than per click (the redirect answers after its click is stored: none lost).
 * Rows are locked in id order, so two batches (of this or another API process) never deadlock on the same
 * recipients; the first click of each recipient wins, repeats write nothing.
 */
export class ClickWriter {
  private pending: Click[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: { maxInFlight: number; maxBatch: number } = { maxInFlight: 1, maxBatch: 500 },
  ) {}

  /** Stores the click (if its message has a tracked link) and answers where the link leads, or null. */
  record(target: { accountId: number; messageId: number }, clickId: string | null): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...target, clickId, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.write(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async write(batch: Click[]): Promise<void> {
    try {
      const destinations = await recordFirstClicks(this.pool, batch).catch((error: { code?: string }) => {
        // Deadlock detected: cannot come from this process's ordered locks, but retried once rather than lost.
        if (error.code === '40P01') return recordFirstClicks(this.pool, batch);
        throw error;
      });
      for (const click of batch)
        click.resolve(destinations.get(`${click.accountId}.${click.messageId}`) ?? null);
    } catch (error) {
      for (const click of batch) click.reject(error);
    }
  }
}
