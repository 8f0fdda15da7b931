import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { startTestWorker, type TestWorker } from '../../../../../test-support/worker';
import { signedInUser } from '../auth/auth-test-helpers';
import { completeFinishedBroadcasts } from '../broadcasts/sending/broadcast-completion';
import { refreshBroadcastCounts } from '../broadcasts/broadcast-counts';
import { saveAccountSettings } from '../settings/settings-repo';
import { BROADCAST_MAIL_QUEUE, BroadcastMailer, MAIL_ATTEMPTS } from './broadcast-mail';

/**
 * 'Notify Customers via Email': a completed broadcast's e-mail goes through a real SMTP
 * server (smtp-server, listening in this test) by the worker's pg-boss job, once per broadcast, only for an
 * account with the option on; without SMTP_URL nothing is attempted and that is said once.
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

let t: TestApp;
let smtp: SMTPServer;
let smtpUrl: string;
let worker: TestWorker;
const received: Received[] = [];

/** The message's text as written (quoted-printable soft breaks and escapes undone). */
const decoded = (raw: string) =>
  raw
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_whole, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function account(email: string, name: string) {
  const user = await signedInUser(t, email, name);
  const { rows } = await t.db.pool.query<{ id: number; phone_id: number }>(
    `select a.id::int, p.id::int as phone_id from waba_accounts a join phone_numbers p on p.waba_account_id = a.id
      where a.waba_id = $1`,
    [user.business.waba_id],
  );
  return { id: rows[0]!.id, phoneId: rows[0]!.phone_id };
}

/** A sending broadcast whose messages all reached an outcome: the engine's next completion pass completes it. */
async function finishedBroadcast(owner: { id: number; phoneId: number }, name: string, states: string[]) {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, started_at, total_recipients)
     values ($1, $2, 'spring_promo', 'en_US', $3, '{}', now(), 'sending', now(), $4) returning id::int`,
    [owner.id, owner.phoneId, name, states.length],
  );
  const id = rows[0]!.id;
  await t.db.pool.query(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, accepted_at, failed_at)
     select (select waba_account_id from broadcasts where id = $1), $1, '+1415556' || lpad(ordinality::text, 4, '0'), s,
            case when s <> 'failed' then now() end, case when s = 'failed' then now() end
       from unnest($2::text[]) with ordinality s`,
    [id, states],
  );
  await refreshBroadcastCounts(t.db.pool, [id]);
  return id;
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const mailRow = async (broadcastId: number) =>
  (
    await t.db.pool.query('select outcome, attempts from broadcast_mails where broadcast_id = $1', [
      broadcastId,
    ])
  ).rows[0];

beforeAll(async () => {
  t = await startTestApp();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((to) => to.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await t.close();
});

describe('broadcast-completed e-mail, sent by the worker', () => {
  beforeAll(async () => {
    worker = await startTestWorker({
      app: t,
      pool: t.db.pool,
      mail: { smtpUrl, from: 'Herald <notices@herald.test>' },
    });
  });
  // Stopped before the tests below, whose e-mails it must not take.
  afterAll(() => worker?.stop());

  it("e-mails the account's user through SMTP once when a broadcast completes, only with the option on", async () => {
    const notified = await account('notify-me@acme.test', 'Notified Shop');
    const silent = await account('leave-me@acme.test', 'Silent Shop');
    await saveAccountSettings(t.db.pool, notified.id, { notify_by_email: true });
    await saveAccountSettings(t.db.pool, silent.id, { notify_by_email: false });
    const sale = await finishedBroadcast(notified, 'Spring sale', ['read', 'delivered', 'sent', 'failed']);
    const quiet = await finishedBroadcast(silent, 'Quiet sale', ['read']);

    // The engine's completion pass, then the worker's job (sent here rather than waiting for its minute).
    await completeFinishedBroadcasts(t.db.pool, 3_600);
    await worker.boss.send(BROADCAST_MAIL_QUEUE, {});
    // The row is marked in the transaction that sent the e-mail, which commits just after the server has it.
    await waitFor(async () => received.length >= 1 && (await mailRow(sale))?.outcome === 'sent');

    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe('notices@herald.test');
    expect(mail.to).toEqual(['notify-me@acme.test']);
    const text = decoded(mail.raw);
    expect(text).toContain('Subject: Broadcast completed: Spring sale');
    expect(text).toContain('Your broadcast "Spring sale" (template spring_promo) completed on');
    for (const line of ['Recipients: 4', 'Sent: 3', 'Delivered: 2', 'Read: 1', 'Failed: 1', 'Replied: 0'])
      expect(text).toContain(line);
    expect(await mailRow(sale)).toEqual({ outcome: 'sent', attempts: 1 });
    expect(await mailRow(quiet)).toBeUndefined();

    // Once per broadcast: more jobs, and a second completion of the same broadcast (a limited message retried
    // and settled), send nothing more.
    await t.db.pool.query(`update broadcasts set status = 'sending' where id = $1`, [sale]);
    await completeFinishedBroadcasts(t.db.pool, 3_600);
    await worker.boss.send(BROADCAST_MAIL_QUEUE, {});
    await worker.boss.send(BROADCAST_MAIL_QUEUE, {});
    await waitFor(
      async () =>
        (
          await t.db.pool.query(
            `select count(*)::int as n from pgboss.job where name = $1 and state = 'completed'`,
            [BROADCAST_MAIL_QUEUE],
          )
        ).rows[0].n >= 3,
    );
    expect(received).toHaveLength(1);
    expect(await mailRow(sale)).toEqual({ outcome: 'sent', attempts: 1 });
  });

  it('is scheduled every minute', async () => {
    const schedules = await worker.boss.getSchedules();
    expect(schedules.find((schedule) => schedule.name === BROADCAST_MAIL_QUEUE)?.cron).toBe('* * * * *');
  });
});

describe('broadcast-completed e-mail, when it cannot go', () => {
  it('without SMTP_URL attempts nothing, says so once, and does not keep the e-mails waiting', async () => {
    const owner = await account('no-server@acme.test', 'Serverless Shop');
    await saveAccountSettings(t.db.pool, owner.id, { notify_by_email: true });
    const logged: string[] = [];
    const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) };
    const mailer = new BroadcastMailer({ pool: t.db.pool, from: 'Herald <x@herald.test>', log });
    const before = received.length;
    const id = await finishedBroadcast(owner, 'Offline sale', ['delivered']);
    await completeFinishedBroadcasts(t.db.pool, 3_600);
    await mailer.sendPending();
    await mailer.sendPending();
    expect(logged).toEqual(['SMTP_URL is not set: broadcast-completed e-mails are not sent']);
    expect(await mailRow(id)).toEqual({ outcome: 'no mail server', attempts: 0 });
    expect(received.length).toBe(before);
  });

  it('keeps an e-mail the mail server refused for a later attempt, names the cause, and gives up after five', async () => {
    const owner = await account('refused@acme.test', 'Refused Shop');
    await saveAccountSettings(t.db.pool, owner.id, { notify_by_email: true });
    const logged: string[] = [];
    const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) };
    // A port nothing listens on: the connection is refused.
    const mailer = new BroadcastMailer({
      pool: t.db.pool,
      smtpUrl: 'smtp://127.0.0.1:9',
      from: 'x@h.test',
      log,
    });
    const id = await finishedBroadcast(owner, 'Refused sale', ['read']);
    await t.db.pool.query(`update broadcasts set status = 'completed' where id = $1`, [id]);
    await mailer.sendPending();
    expect(await mailRow(id)).toEqual({ outcome: null, attempts: 1 });
    expect(logged[0]).toMatch(
      new RegExp(`^broadcast ${id}: the completed e-mail was not sent: .*ECONNREFUSED`),
    );
    for (let attempt = 2; attempt <= MAIL_ATTEMPTS; attempt += 1) await mailer.sendPending();
    mailer.close();
    expect(await mailRow(id)).toEqual({ outcome: 'gave up', attempts: MAIL_ATTEMPTS });
  });
});
