import type { SentParameters } from './validate-send';

/** The send endpoint that accepted a message: Cloud API's `/messages` or the MM API's `/marketing_messages`. */
export type SendEndpoint = 'messages' | 'marketing_messages';

/** One accepted message, kept compact (about 300 bytes) so 100k+ fit easily in memory. */
export interface AcceptedMessage {
  wamid: string;
  phoneNumberId: string;
  to: string;
  /** The template sent; '' for a message of another `type`. */
  templateName: string;
  language: string;
  /** A message that is not a template: its type (`text`, `image`, `interactive`, …). */
  type?: string;
  bizOpaqueCallbackData: string | null;
  endpoint: SendEndpoint;
  acceptedAt: number;
  /** Its time-to-live in seconds (templates/time-to-live.ts): undelivered this long after acceptance, it expires. */
  ttlSeconds: number;
  /** Set once it expired undelivered: acceptance + TTL (Unix ms), the time its `failed` status names. */
  expiredAt?: number;
  /** SentParameters as JSON: one string rather than a tree of small objects. */
  parameters: string;
}

export interface AcceptedQuery {
  phoneNumberId?: string;
  to?: string;
  endpoint?: SendEndpoint;
  /** Unix milliseconds; records accepted at or after it. */
  since?: number;
  /** Also list every recipient a send request named for the number, accepted or refused. */
  withRequested?: boolean;
  limit?: number;
  offset?: number;
}

/**
 * The ground truth of what the sandbox accepted, append-only until reset: tests count how often each
 * recipient was messaged from it.
 */
export class AcceptedLog {
  private readonly records: AcceptedMessage[] = [];
  /** Per phone number id: every recipient a send request reached the sandbox for, whatever its answer. */
  private readonly requested = new Map<string, Set<string>>();

  /** A send request arrived (before its faults and limits are decided): the fault tests' ground truth. */
  noteRequest(phoneNumberId: string, to: string): void {
    let recipients = this.requested.get(phoneNumberId);
    if (!recipients) this.requested.set(phoneNumberId, (recipients = new Set()));
    recipients.add(to);
  }

  /**
   * `endpoint` defaults to `messages`, Cloud API's send. Answers the record as kept, so the message's expiry
   * can mark it without a search through the log.
   */
  add(
    record: Omit<AcceptedMessage, 'parameters' | 'endpoint' | 'expiredAt'> & {
      parameters: SentParameters;
      endpoint?: SendEndpoint;
    },
  ): AcceptedMessage {
    const kept: AcceptedMessage = {
      ...record,
      endpoint: record.endpoint ?? 'messages',
      parameters: JSON.stringify(record.parameters),
    };
    this.records.push(kept);
    return kept;
  }

  /**
   * The accepted message with this wamid, its parameters parsed. A scan from the newest: it serves control
   * calls only, so no index is kept beside 100k+ records.
   */
  find(wamid: string): (Omit<AcceptedMessage, 'parameters'> & { parameters: SentParameters }) | undefined {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const record = this.records[i] as AcceptedMessage;
      if (record.wamid === wamid)
        return { ...record, parameters: JSON.parse(record.parameters) as SentParameters };
    }
    return undefined;
  }

  get size(): number {
    return this.records.length;
  }

  clear(): void {
    this.records.length = 0;
    this.requested.clear();
  }

  query(q: AcceptedQuery) {
    const matching = this.records.filter(
      (r) =>
        (q.phoneNumberId === undefined || r.phoneNumberId === q.phoneNumberId) &&
        (q.to === undefined || r.to === q.to) &&
        (q.endpoint === undefined || r.endpoint === q.endpoint) &&
        (q.since === undefined || r.acceptedAt >= q.since),
    );
    const perRecipient = new Map<string, number>();
    for (const r of matching) perRecipient.set(r.to, (perRecipient.get(r.to) ?? 0) + 1);
    const duplicates = [...perRecipient].filter(([, n]) => n > 1).map(([to, count]) => ({ to, count }));
    const offset = q.offset ?? 0;
    const page = matching.slice(offset, q.limit === undefined ? undefined : offset + q.limit);
    const requested = q.withRequested
      ? [...this.requested]
          .filter(([phone]) => q.phoneNumberId === undefined || phone === q.phoneNumberId)
          .flatMap(([, recipients]) => [...recipients])
      : undefined;
    return {
      ...(requested && { requested_recipients: requested }),
      total: matching.length,
      unique_recipients: perRecipient.size,
      duplicate_recipients: duplicates,
      data: page.map((r) => ({
        wamid: r.wamid,
        phone_number_id: r.phoneNumberId,
        to: r.to,
        ...(r.type === undefined
          ? { template: { name: r.templateName, language: r.language } }
          : { type: r.type }),
        biz_opaque_callback_data: r.bizOpaqueCallbackData,
        endpoint: r.endpoint,
        accepted_at: new Date(r.acceptedAt).toISOString(),
        ttl_seconds: r.ttlSeconds,
        ...(r.expiredAt === undefined ? {} : { expired_at: new Date(r.expiredAt).toISOString() }),
        parameters: JSON.parse(r.parameters) as SentParameters,
      })),
    };
  }
}
