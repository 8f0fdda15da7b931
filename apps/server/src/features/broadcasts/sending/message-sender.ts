import http from 'node:http';
import https from 'node:https';
import { metaRetryDelayMs, outcomeOfMetaError } from '@herald/contracts';
import {
  graphErrorOf,
  graphFetch,
  graphHeaders,
  graphUrl,
  parseGraphJson,
  type GraphEndpoint,
} from '../../../graph/graph-http';
import type { SendEndpoint } from '../../marketing-messages/index';

export type SendOutcome =
  | { kind: 'accepted'; wamid: string }
  /** 200 with `message_status` held_for_quality_assessment or paused (template pacing): a status settles it. */
  | { kind: 'held'; wamid: string }
  /** `unanswered`: WhatsApp's servers did not answer it (5xx or unreachable), as opposed to "not now" (130429). */
  | {
      kind: 'retry';
      code: number;
      title: string;
      minDelayMs?: number;
      unanswered?: true;
      /** The Marketing Messages API refused the account or the template: it goes again through /messages. */
      mmApiRefused?: true;
    }
  | { kind: 'failed'; code: number; title: string }
  /** The per-user marketing limit (131049) or not on WhatsApp (131026): outcomes of their own, not failures. */
  | { kind: 'limited' | 'not_on_whatsapp'; code: number; title: string }
  /** The template is paused or disabled (132015/132016); nothing was sent, the broadcast pauses (decision 029). */
  | { kind: 'template_paused'; code: number; title: string; details: string | null }
  /** The request may have reached Meta: never resend blindly; a status webhook settles it. */
  | { kind: 'unconfirmed'; title: string };

// Template pacing's answers: Meta took the message but holds it; it is sent or dropped later.
const HELD_STATUSES = new Set(['held_for_quality_assessment', 'paused']);

/**
 * A request connected and ready, nothing of it written: `send` writes it at once and answers Meta's answer;
 * `abandon` closes it unsent. Or, when no connection could be made, the outcome of a request never sent.
 */
export type OpenedRequest = { send(): Promise<SendOutcome>; abandon(): void } | { notSent: SendOutcome };

/**
 * `POST /{phone-number-id}/messages` (or `/marketing_messages`, the Marketing Messages API: same body and
 * answers) over a keep-alive agent (node:http, which sustains far more requests per
 * second than fetch here, and lets `open` connect a request and write it later). Its URL, headers and Meta's
 * error body come from graph-http.ts, as GraphClient's do. Classifies every answer: accepted, retry later,
 * failed for good, or unconfirmed.
 */
/** How long a pooled socket may stay idle: under any common server keep-alive (Node's 5 s; Fastify's 72 s). */
const IDLE_SOCKET_MS = 4_000;

export class MessageSender {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly endpoint: GraphEndpoint;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    baseUrl: string,
    version: string,
    private readonly maxSockets = 64,
    idleSocketMs = IDLE_SOCKET_MS,
  ) {
    this.endpoint = { baseUrl, version };
    this.transport = baseUrl.startsWith('https:') ? https : http;
    // An idle socket is closed by Herald before the server closes it: a request written to a socket the server
    // is closing at that moment is reset, and a reset after the write leaves its message unconfirmed (never
    // resent). Without a timeout of its own, Node's agent ignores the server's Keep-Alive hint and keeps an idle
    // socket until the server ends it.
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets, timeout: idleSocketMs });
  }

  /**
   * Opens one request without sending it: waits for a socket's turn (fewer than `maxSockets` requests out, so
   * nothing waits in the agent's queue), connects, and holds the request there, headers and body ready and
   * nothing written. The sender marks the row requested meanwhile (request-marks.ts) and sends the moment the
   * mark is written: `send` writes the whole request to the connected socket in that very call, so a row marked
   * is a request on the wire, not one still waiting for a connection. A connection that cannot be made answers
   * its outcome at once (`notSent`: provably not accepted, to retry), and nothing needs marking.
   */
  async open(
    token: string,
    phoneNumberId: string,
    body: object,
    endpoint: SendEndpoint = 'messages',
  ): Promise<OpenedRequest> {
    if (this.inFlight >= this.maxSockets) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      this.waiting.shift()?.();
    };
    const payload = Buffer.from(JSON.stringify(body));
    const url = new URL(graphUrl(this.endpoint, `/${phoneNumberId}/${endpoint}`));
    let written = false;
    let settle: (outcome: SendOutcome) => void = () => undefined;
    const answer = new Promise<SendOutcome>((resolve) => (settle = resolve)).finally(release);
    const request = this.transport.request(
      url,
      {
        method: 'POST',
        agent: this.agent,
        headers: { ...graphHeaders(token, body), 'content-length': payload.length },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          settle(
            throughCloudApiIfRefused(
              endpoint,
              classify(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')),
            ),
          ),
        );
        response.on('error', () => settle({ kind: 'unconfirmed', title: 'The answer was cut off' }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    const connected = new Promise<boolean>((ready) => {
      request.on('error', (error: NodeJS.ErrnoException) => {
        ready(false);
        // Refused before anything was sent: provably not accepted, so it is safe to retry.
        if (!written || error.code === 'ECONNREFUSED') {
          settle({
            kind: 'retry',
            code: 0,
            title: `Cloud API unreachable: ${error.code ?? error.message}`,
            unanswered: true,
          });
        } else {
          settle({ kind: 'unconfirmed', title: `No answer: ${error.code ?? error.message}` });
        }
      });
      request.on('socket', (socket) => {
        if (!socket.connecting) ready(true);
        else socket.once('connect', () => ready(true));
      });
    });
    if (!(await connected)) return { notSent: await answer };
    return {
      send: () => {
        written = true;
        request.end(payload);
        return answer;
      },
      abandon: () => {
        request.destroy();
        release();
      },
    };
  }

  async send(
    token: string,
    phoneNumberId: string,
    body: object,
    endpoint: SendEndpoint = 'messages',
  ): Promise<SendOutcome> {
    const opened = await this.open(token, phoneNumberId, body, endpoint);
    return 'notSent' in opened ? opened.notSent : opened.send();
  }

  /**
   * `POST /{phone-number-id}/media` (multipart file, type, messaging_product): the id a message's media
   * header can name. Once per file and sender, so fetch is fast enough here (graph-http.ts's, as GraphClient's).
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
    const response = await graphFetch(this.endpoint, 'POST', `/${phoneNumberId}/media`, {
      token,
      body: form,
      timeoutMs: 60_000,
    });
    // An answer that cannot be read, or is not JSON, is one without an id.
    const parsed = parseGraphJson(await response.text().catch(() => ''));
    const body = parsed === undefined ? {} : parsed;
    const id = (body as { id?: string }).id;
    if (!response.ok || !id) {
      throw new Error(
        graphErrorOf(body)?.message ?? `Cloud API answered ${response.status} to the media upload`,
      );
    }
    return id;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** What an answer of `POST /{phone-number-id}/messages` means for the message (exported for its unit test). */
/** Meta's answer from `/marketing_messages` when the account is not onboarded or the template not marketing. */
const MM_API_REFUSED = 131055;

/**
 * A Marketing Messages API refusal says Herald's picture is out of date (the terms, or the template's category,
 * changed at Meta): nothing was sent, so the message is retried, and through `/messages` (the caller forgets the
 * account's onboarding until Meta is asked again).
 */
function throughCloudApiIfRefused(endpoint: SendEndpoint, outcome: SendOutcome): SendOutcome {
  if (endpoint !== 'marketing_messages' || outcome.kind !== 'failed' || outcome.code !== MM_API_REFUSED)
    return outcome;
  return { kind: 'retry', code: outcome.code, title: outcome.title, mmApiRefused: true };
}

export function classify(status: number, text: string): SendOutcome {
  const body = parseGraphJson(text) as
    { messages?: Array<{ id?: string; message_status?: string }> } | undefined;
  if (body === undefined) {
    return status >= 500
      ? { kind: 'retry', code: status, title: `Cloud API answered ${status}`, unanswered: true }
      : { kind: 'failed', code: status, title: `Cloud API answered ${status}` };
  }
  const wamid = body.messages?.[0]?.id;
  if (status >= 200 && status < 300 && wamid) {
    const held = HELD_STATUSES.has(body.messages?.[0]?.message_status ?? '');
    return { kind: held ? 'held' : 'accepted', wamid };
  }
  const error = graphErrorOf(body);
  const code = error?.code ?? status;
  const title = error?.message ?? `Cloud API answered ${status}`;
  // What the code means is Meta's rule (meta-outcomes.ts in contracts); how the answer came is this client's.
  const outcome = outcomeOfMetaError(code);
  if (outcome === 'template_paused') {
    return { kind: 'template_paused', code, title, details: error?.error_data?.details ?? null };
  }
  if (outcome === 'limited' || outcome === 'not_on_whatsapp') return { kind: outcome, code, title };
  const minDelayMs = metaRetryDelayMs(code);
  if (minDelayMs !== undefined) return { kind: 'retry', code, title, minDelayMs };
  if (status >= 500) return { kind: 'retry', code, title, unanswered: true };
  if (outcome === 'retry') return { kind: 'retry', code, title };
  return { kind: 'failed', code, title };
}
