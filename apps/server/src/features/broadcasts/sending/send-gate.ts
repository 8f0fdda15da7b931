import pg from 'pg';
import type { Pool } from '../../../db/pool';
import type { SendResult } from './message-settle';
import { BROADCASTS_HALTED_CHANNEL } from './template-pause';

/** How long after a failed LISTEN connection the gate tries again (it never holds a batch up for it). */
const RETRY_MS = 5_000;

/** One claimed batch's view of the gate: may this broadcast's message still be requested? */
export interface BatchGate {
  allows(broadcastId: number): boolean;
  /** Passes a send's result through; a 132015/132016 answer stops the rest of its broadcast's batch at once. */
  saw(result: SendResult): SendResult;
}

/**
 * Stops a batch in flight when its broadcast stops sending (decision 029). The claim only takes sending
 * broadcasts, but a batch of 200 at 80 mps takes 2.5 s to go out: when WhatsApp pauses the template (its
 * webhook) or the user pauses, the rest of that batch must not be requested. Pauses are NOTIFY'd on
 * BROADCASTS_HALTED_CHANNEL at commit; the gate LISTENs on a connection of its own and marks each broadcast
 * halted with a sequence number. A batch may send to a broadcast unless it was halted after the batch began,
 * so a later resume (a new batch) sends again. If the LISTEN connection is down, the next claim still stops
 * the broadcast: only the batch in flight would go on.
 */
export class SendGate {
  private client: pg.Client | null = null;
  private retryAt = 0;
  private sequence = 0;
  private closed = false;
  /** Broadcast id → the sequence number when this process learnt it stopped sending. */
  private readonly halted = new Map<number, number>();

  constructor(
    private readonly pool: Pool,
    private readonly log?: { error: (details: object, message: string) => void },
  ) {}

  /** Call before claiming a batch; the batch may send unless its broadcast is halted from now on. */
  async batch(): Promise<BatchGate> {
    await this.listen();
    const since = ++this.sequence;
    return {
      allows: (broadcastId) => (this.halted.get(broadcastId) ?? 0) < since,
      saw: (result) => {
        if (result.state === 'template_paused') this.halt(result.broadcastId);
        return result;
      },
    };
  }

  halt(broadcastId: number): void {
    this.halted.set(broadcastId, ++this.sequence);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.closed || this.client || Date.now() < this.retryAt) return;
    const client = new pg.Client({ ...this.pool.options, connectionTimeoutMillis: 2_000 });
    const lost = (error: Error) => {
      if (this.client === client) this.client = null;
      this.retryAt = Date.now() + RETRY_MS;
      this.log?.error({ err: error }, 'send gate LISTEN connection lost');
      void client.end().catch(() => undefined);
    };
    client.on('error', lost);
    // Ended by the server without an error (a restart's shutdown): listen again on a later batch.
    client.on('end', () => {
      if (this.client !== client) return;
      this.client = null;
      this.retryAt = Date.now() + RETRY_MS;
    });
    client.on('notification', (message) => {
      const id = Number(message.payload);
      if (Number.isInteger(id)) this.halt(id);
    });
    try {
      await client.connect();
      await client.query(`listen ${BROADCASTS_HALTED_CHANNEL}`);
      if (this.closed) await client.end();
      else this.client = client;
    } catch (error) {
      lost(error as Error);
    }
  }
}
