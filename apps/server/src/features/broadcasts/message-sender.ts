import http from 'node:http';
import https from 'node:https';

export type SendOutcome =
  | { kind: 'accepted'; wamid: string }
  /** 200 with `message_status` held_for_quality_assessment or paused (template pacing): a status settles it. */
  | { kind: 'held'; wamid: string }
  /** `unanswered`: WhatsApp's servers did not answer it (5xx or unreachable), as opposed to "not now" (130429). */
  | { kind: 'retry'; code: number; title: string; minDelayMs?: number; unanswered?: true }
  | { kind: 'failed'; code: number; title: string }
  /** 131049 (per-user marketing limit) or 131026 (not on WhatsApp): outcomes of their own, not failures. */
  | { kind: 'limited' | 'not_on_whatsapp'; code: number; title: string }
  /** 132015/132016: the template is paused or disabled; nothing was sent, the broadcast pauses (decision 029). */
  | { kind: 'template_paused'; code: number; title: string; details: string | null }
  /** The request may have reached Meta: never resend blindly; a status webhook settles it. */
  | { kind: 'unconfirmed'; title: string };

// Meta's codes that mean "not now" rather than "never" (its error-code reference).
const RETRY_CODES = new Set([130429, 131056, 131000, 131016, 4, 80007, 2]);
const PAIR_RATE = 131056;
export const MARKETING_LIMIT = 131049;
export const NOT_ON_WHATSAPP = 131026;
export const TEMPLATE_PAUSED = 132015;
export const TEMPLATE_DISABLED = 132016;
// Template pacing's answers: Meta took the message but holds it; it is sent or dropped later.
const HELD_STATUSES = new Set(['held_for_quality_assessment', 'paused']);

/** One request's turn on a socket: `send` uses it (once); `release` gives it back unused. */
export interface Reservation {
  send(token: string, phoneNumberId: string, body: object): Promise<SendOutcome>;
  release(): void;
}

/**
 * `POST /{phone-number-id}/messages` over a keep-alive agent (node:http, which sustains far more requests per
 * second than fetch here). Classifies every answer: accepted, retry later, failed for good, or unconfirmed.
 */
export class MessageSender {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly baseUrl: string,
    private readonly version: string,
    private readonly maxSockets = 64,
  ) {
    this.transport = baseUrl.startsWith('https:') ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets });
  }

  /**
   * A socket's turn for one request: resolves when fewer than `maxSockets` requests are out, so the request
   * sent with it leaves Herald at once instead of waiting in the agent's queue. The sender marks a row
   * requested only once it holds a turn (request-marks.ts): a row marked is a request on the wire.
   */
  async reserve(): Promise<Reservation> {
    if (this.inFlight >= this.maxSockets) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
    let used = false;
    const release = () => {
      if (used) return;
      used = true;
      this.inFlight -= 1;
      this.waiting.shift()?.();
    };
    return {
      send: (token, phoneNumberId, body) => this.post(token, phoneNumberId, body).finally(release),
      release,
    };
  }

  async send(token: string, phoneNumberId: string, body: object): Promise<SendOutcome> {
    return (await this.reserve()).send(token, phoneNumberId, body);
  }

  private post(token: string, phoneNumberId: string, body: object): Promise<SendOutcome> {
    const payload = Buffer.from(JSON.stringify(body));
    const url = new URL(`${this.baseUrl}/${this.version}/${phoneNumberId}/messages`);
    return new Promise((resolve) => {
      let written = false;
      const request = this.transport.request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': payload.length,
          },
          timeout: 30_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve(classify(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))),
          );
          response.on('error', () => resolve({ kind: 'unconfirmed', title: 'The answer was cut off' }));
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', (error: NodeJS.ErrnoException) => {
        // Refused before anything was sent: provably not accepted, so it is safe to retry.
        if (!written || error.code === 'ECONNREFUSED') {
          resolve({
            kind: 'retry',
            code: 0,
            title: `Cloud API unreachable: ${error.code ?? error.message}`,
            unanswered: true,
          });
        } else {
          resolve({ kind: 'unconfirmed', title: `No answer: ${error.code ?? error.message}` });
        }
      });
      request.on('socket', (socket) => {
        if (!socket.connecting) written = true;
        else socket.once('connect', () => (written = true));
      });
      request.end(payload);
    });
  }

  /**
   * `POST /{phone-number-id}/media` (multipart file, type, messaging_product): the id a message's media
   * header can name. Once per file and sender, so fetch is fast enough here.
   */
  async uploadMedia(
    token: string,
    phoneNumberId: string,
    file: { bytes: Buffer; mimeType: string; fileName: string },
  ): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', file.mimeType);
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.fileName);
    const response = await fetch(`${this.baseUrl}/${this.version}/${phoneNumberId}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await response.json().catch(() => ({}))) as { id?: string; error?: { message?: string } };
    if (!response.ok || !body.id) {
      throw new Error(body.error?.message ?? `Cloud API answered ${response.status} to the media upload`);
    }
    return body.id;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** What an answer of `POST /{phone-number-id}/messages` means for the message (exported for its unit test). */
export function classify(status: number, text: string): SendOutcome {
  let body: {
    messages?: Array<{ id?: string; message_status?: string }>;
    error?: { code?: number; message?: string; error_data?: { details?: string } };
  } = {};
  try {
    body = JSON.parse(text);
  } catch {
    return status >= 500
      ? { kind: 'retry', code: status, title: `Cloud API answered ${status}`, unanswered: true }
      : { kind: 'failed', code: status, title: `Cloud API answered ${status}` };
  }
  const wamid = body.messages?.[0]?.id;
  if (status >= 200 && status < 300 && wamid) {
    const held = HELD_STATUSES.has(body.messages?.[0]?.message_status ?? '');
    return { kind: held ? 'held' : 'accepted', wamid };
  }
  const code = body.error?.code ?? status;
  const title = body.error?.message ?? `Cloud API answered ${status}`;
  if (code === TEMPLATE_PAUSED || code === TEMPLATE_DISABLED) {
    return { kind: 'template_paused', code, title, details: body.error?.error_data?.details ?? null };
  }
  if (code === MARKETING_LIMIT) return { kind: 'limited', code, title };
  if (code === NOT_ON_WHATSAPP) return { kind: 'not_on_whatsapp', code, title };
  if (code === PAIR_RATE) return { kind: 'retry', code, title, minDelayMs: 6_000 };
  if (status >= 500) return { kind: 'retry', code, title, unanswered: true };
  if (RETRY_CODES.has(code)) return { kind: 'retry', code, title };
  return { kind: 'failed', code, title };
}
