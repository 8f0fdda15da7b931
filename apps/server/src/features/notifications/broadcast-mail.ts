import nodemailer, { type Transporter } from 'nodemailer';
import type { Pool } from '../../db/pool';
import { withTransaction } from '../../db/transaction';
import { freshenCounts } from '../broadcasts/index';

/** pg-boss queue whose job sends the pending broadcast-completed e-mails (made at migrate time: job-schema.ts). */
export const BROADCAST_MAIL_QUEUE = 'broadcast-mail';
/** Every minute: a completed broadcast's e-mail leaves within a minute or so of its completion. */
export const BROADCAST_MAIL_CRON = '* * * * *';
/** Attempts of one e-mail before it is given up (a job each minute: about five minutes of a mail server down). */
export const MAIL_ATTEMPTS = 5;

export interface MailLog {
  info: (message: string) => void;
  warn: (message: string) => void;
}

/** What the e-mail says about one broadcast: its name and figures, and who gets it. */
interface CompletedBroadcast {
  name: string;
  template_name: string;
  completed_at: Date;
  total_recipients: number;
  accepted_count: number;
  delivered_count: number;
  read_count: number;
  failed_count: number;
  limited_count: number;
  not_on_whatsapp_count: number;
  expired_count: number;
  skipped_count: number;
  unknown_count: number;
  replied_count: number;
  recipients: string[];
}

/**
 * Sends the broadcast-completed e-mails ('Notify Customers via Email', decision 042): broadcast_mails holds
 * one row per completed broadcast of an account with the option on (written with the completion itself).
 * Each row is sent under its row lock (skip locked, so two workers never send one twice) and marked in the
 * same transaction, so each broadcast gets its e-mail once. Without SMTP_URL nothing is attempted: that is
 * logged once, at start, and the rows are marked 'no mail server'.
 */
export class BroadcastMailer {
  private readonly transport: Transporter | null;

  constructor(private readonly deps: { pool: Pool; smtpUrl?: string; from: string; log: MailLog }) {
    this.transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
    if (!this.transport) deps.log.info('SMTP_URL is not set: broadcast-completed e-mails are not sent');
  }

  /** One job: every pending e-mail, oldest broadcast first. Answers how many were sent. */
  async sendPending(): Promise<number> {
    const { pool } = this.deps;
    if (!this.transport) {
      await pool.query(
        `update broadcast_mails set outcome = 'no mail server', done_at = now() where outcome is null`,
      );
      return 0;
    }
    const { rows } = await pool.query<{ waba_account_id: number; broadcast_id: number }>(
      `select waba_account_id::int, broadcast_id::int from broadcast_mails where outcome is null
        order by broadcast_id limit 100`,
    );
    let sent = 0;
    for (const row of rows) if (await this.sendOne(row.waba_account_id, row.broadcast_id)) sent += 1;
    return sent;
  }

  close(): void {
    this.transport?.close();
  }

  private async sendOne(accountId: number, broadcastId: number): Promise<boolean> {
    const transport = this.transport!;
    await freshenCounts(this.deps.pool, accountId, [broadcastId]);
    return withTransaction(this.deps.pool, async (client) => {
      const claimed = await client.query(
        `select 1 from broadcast_mails where waba_account_id = $2 and broadcast_id = $1 and outcome is null
            for update skip locked`,
        [broadcastId, accountId],
      );
      if (claimed.rowCount === 0) return false;
      const { rows } = await client.query<CompletedBroadcast>(
        `select b.name, b.template_name, coalesce(b.completed_at, now()) as completed_at, b.total_recipients,
                b.accepted_count, b.delivered_count, b.read_count, b.failed_count, b.limited_count,
                b.not_on_whatsapp_count, b.expired_count, b.skipped_count, b.unknown_count, b.replied_count,
                array(select u.email from users u where u.id = a.user_id) as recipients
           from broadcasts b join waba_accounts a on a.id = b.waba_account_id
          where b.waba_account_id = $2 and b.id = $1`,
        [broadcastId, accountId],
      );
      const broadcast = rows[0];
      try {
        if (!broadcast || broadcast.recipients.length === 0) throw new Error('no one to send it to');
        await transport.sendMail({
          from: this.deps.from,
          to: broadcast.recipients,
          ...completedMail(broadcast),
        });
      } catch (error) {
        const message = (error as Error).message;
        await client.query(
          `update broadcast_mails set attempts = attempts + 1, last_error = $2,
                  outcome = case when attempts + 1 >= $3 then 'gave up' end,
                  done_at = case when attempts + 1 >= $3 then now() end
            where waba_account_id = $4 and broadcast_id = $1`,
          [broadcastId, message, MAIL_ATTEMPTS, accountId],
        );
        this.deps.log.warn(`broadcast ${broadcastId}: the completed e-mail was not sent: ${message}`);
        return false;
      }
      await client.query(
        `update broadcast_mails set attempts = attempts + 1, outcome = 'sent', done_at = now(), last_error = null
          where waba_account_id = $2 and broadcast_id = $1`,
        [broadcastId, accountId],
      );
      return true;
    });
  }
}

/** The e-mail's subject and plain-text body: the broadcast's name and every figure the history shows. */
export function completedMail(b: Omit<CompletedBroadcast, 'recipients'>): { subject: string; text: string } {
  const lines = [
    `Your broadcast "${b.name}" (template ${b.template_name}) completed on ${b.completed_at.toUTCString()}.`,
    '',
    `Recipients: ${b.total_recipients}`,
    `Sent: ${b.accepted_count}`,
    `Delivered: ${b.delivered_count}`,
    `Read: ${b.read_count}`,
    `Failed: ${b.failed_count}`,
  ];
  // Outcomes that are not failures (decision 028), named only when they happened.
  if (b.limited_count > 0) lines.push(`Limited by WhatsApp: ${b.limited_count}`);
  if (b.not_on_whatsapp_count > 0) lines.push(`Not on WhatsApp: ${b.not_on_whatsapp_count}`);
  if (b.expired_count > 0) lines.push(`Expired: ${b.expired_count}`);
  if (b.skipped_count > 0) lines.push(`Skipped (frequency cap): ${b.skipped_count}`);
  if (b.unknown_count > 0) lines.push(`Unknown: ${b.unknown_count}`);
  lines.push(`Replied: ${b.replied_count}`, '', 'Herald');
  return { subject: `Broadcast completed: ${b.name}`, text: `${lines.join('\n')}\n` };
}
