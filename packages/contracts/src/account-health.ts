import { z } from 'zod';

/**
 * What Meta did to a WhatsApp Business account, as its `account_update` webhooks said (DISABLED_UPDATE,
 * ACCOUNT_RESTRICTION, ACCOUNT_VIOLATION, the events that cut Herald off from it or reconnect it) and its
 * `account_review_update` decision, and how Herald words it. Shared so the server's pause reason, the bell and
 * the web banner say the same thing.
 */

/** A ban state that stops every message of the account: its broadcasts pause. */
export const BAN_STOPS_SENDING = 'DISABLE';
/** A ban state that lifts the ban: the banner clears, paused broadcasts stay paused. */
export const BAN_LIFTED = 'REINSTATE';
/** The restriction that stops templates, hence broadcasts: its broadcasts pause. */
export const RESTRICTION_STOPS_BROADCASTS = 'RESTRICTED_BIZ_INITIATED_MESSAGING';
/**
 * The `account_update` events after which Herald can no longer send for the account, each with the events
 * that undo it: Meta deleted or offboarded the account, or its business removed Herald as a partner or
 * revoked the app's permissions.
 */
export const DISCONNECTING_EVENTS: Record<string, readonly string[]> = {
  ACCOUNT_DELETED: [],
  ACCOUNT_OFFBOARDED: ['ACCOUNT_RECONNECTED'],
  PARTNER_REMOVED: ['PARTNER_ADDED'],
  PARTNER_APP_UNINSTALLED: ['PARTNER_APP_INSTALLED', 'PARTNER_ADDED'],
};
/** The events that may undo a disconnection (each only the ones DISCONNECTING_EVENTS pairs it with). */
export const RECONNECTING_EVENTS = ['ACCOUNT_RECONNECTED', 'PARTNER_ADDED', 'PARTNER_APP_INSTALLED'] as const;
/** The review decision that lets a WABA use the APIs; Meta says REJECTED, PENDING and DEFERRED do not. */
export const REVIEW_APPROVED = 'APPROVED';
/** A violation has no lifting event: it stays on the banner this long after it came. */
export const VIOLATION_SHOWN_DAYS = 30;

export const AccountRestrictionSchema = z.object({
  type: z.string(),
  /** ISO 8601; null when Meta gave no expiration (it lasts until Meta lifts it). */
  expires_at: z.string().nullable(),
});

/** GET /account-health: the selected account's state now (expired restrictions left out). */
export const AccountHealthResponseSchema = z
  .object({
    /** Null when no ban was ever reported, or the last one was lifted (REINSTATE). */
    ban: z
      .object({
        /** Meta's `waba_ban_state`: DISABLE, SCHEDULE_FOR_DISABLE, … */
        state: z.string(),
        /** Meta's `waba_ban_date` as ISO 8601 when it could be read, else its text; null when absent. */
        date: z.string().nullable(),
        /** When Herald received it (ISO 8601). */
        since: z.string(),
      })
      .nullable(),
    restrictions: z.array(AccountRestrictionSchema),
    /** When the restrictions now in force were received (ISO 8601); null with none. */
    restricted_since: z.string().nullable(),
    /** The latest violation, for VIOLATION_SHOWN_DAYS after it came. */
    violation: z.object({ type: z.string(), at: z.string() }).nullable(),
    /** The event that cut Herald off from the account (a DISCONNECTING_EVENTS key) and when; null while connected. */
    disconnected: z.object({ event: z.string(), since: z.string() }).nullable(),
    /** Meta's review decision while it is not APPROVED (REJECTED, PENDING, DEFERRED) and since when; else null. */
    review: z.object({ decision: z.string(), since: z.string() }).nullable(),
  })
  .meta({ id: 'AccountHealth' });

export type AccountRestriction = z.infer<typeof AccountRestrictionSchema>;
export type AccountHealthResponse = z.infer<typeof AccountHealthResponseSchema>;

/** The part of the account's standing a notice or an event is about. */
export type AccountHealthPart = 'ban' | 'restriction' | 'violation' | 'connection' | 'review';

/** One line of the banner: `stop` when sending is stopped, `warning` otherwise. */
export interface AccountHealthNotice {
  part: AccountHealthPart;
  severity: 'stop' | 'warning';
  text: string;
}

/** "27 Nov 2026, 14:05 UTC"; the text itself when it is no time (Meta's ban date is sometimes free text). */
export function healthTime(value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  const date = new Date(ms);
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

const until = (expiresAt: string | null) =>
  expiresAt ? ` until ${healthTime(expiresAt)}` : ' until WhatsApp lifts it';

const RESTRICTION_WORDS: Record<string, { what: string; stops: string; stopsSending: boolean }> = {
  [RESTRICTION_STOPS_BROADCASTS]: {
    what: 'restricted this account from starting conversations',
    stops:
      'Templates and broadcasts cannot be sent; replies to customers who wrote first still go. Broadcasts that were sending or scheduled are paused: resume them once the restriction ends.',
    stopsSending: true,
  },
  RESTRICTED_CUSTOMER_INITIATED_MESSAGING: {
    what: 'restricted this account from replying to customers who write first',
    stops: 'Replies cannot be sent; broadcasts are not affected.',
    stopsSending: false,
  },
  RESTRICTED_ADD_PHONE_NUMBER_ACTION: {
    what: 'stopped this account from adding phone numbers',
    stops: 'Sending is not affected.',
    stopsSending: false,
  },
};

const PAUSED = 'Broadcasts that were sending or scheduled are paused';

const DISCONNECTION_WORDS: Record<string, { what: string; until: string }> = {
  ACCOUNT_DELETED: {
    what: 'WhatsApp deleted this business account',
    until: 'nothing can be sent from it again',
  },
  ACCOUNT_OFFBOARDED: {
    what: 'This business account was disconnected from Herald',
    until: 'nothing can be sent until it is reconnected',
  },
  PARTNER_REMOVED: {
    what: 'This business account removed Herald as its partner',
    until: 'nothing can be sent until its owner adds Herald back in Meta Business Suite',
  },
  PARTNER_APP_UNINSTALLED: {
    what: "This business account revoked Herald's permissions",
    until: 'nothing can be sent until it is linked again with Embedded Signup',
  },
};

const REVIEW_WORDS: Record<string, string> = {
  REJECTED: "WhatsApp rejected this business account in its review (it does not meet WhatsApp's policies)",
  PENDING: "WhatsApp's review of this business account is still pending",
  DEFERRED: 'WhatsApp deferred its review of this business account',
};

/** Why an account Meta has not approved may send nothing, in a pause reason's words. */
const reviewStop = (decision: string) =>
  `${REVIEW_WORDS[decision] ?? `WhatsApp's review of this business account says ${decision}`}: nothing can be sent until WhatsApp approves it`;

/** The reason a paused broadcast shows for what stopped its account. */
export function accountPauseReason(
  kind: 'ban' | 'restriction' | { disconnected: string } | { review: string },
): string {
  if (kind === 'ban') {
    return 'WhatsApp disabled this business account: nothing can be sent until WhatsApp reinstates it';
  }
  if (kind === 'restriction') {
    return 'WhatsApp restricted this business account from starting conversations: broadcasts cannot be sent until the restriction ends';
  }
  if ('review' in kind) return reviewStop(kind.review);
  const words = DISCONNECTION_WORDS[kind.disconnected];
  return words
    ? `${words.what}: ${words.until}`
    : `Herald lost access to this business account (${kind.disconnected}): nothing can be sent`;
}

/**
 * Why nothing may be sent from the account now, in the words a paused broadcast shows; null when sending is
 * allowed. A ban (DISABLE) stops everything; a restriction of business-initiated messaging stops broadcasts.
 * Resuming or creating a broadcast is refused while one holds: it would only send into WhatsApp's errors.
 */
export function accountSendingStop(health: AccountHealthResponse): string | null {
  if (health.disconnected) return accountPauseReason({ disconnected: health.disconnected.event });
  if (health.review) return accountPauseReason({ review: health.review.decision });
  if (health.ban?.state === BAN_STOPS_SENDING) return accountPauseReason('ban');
  if (health.restrictions.some((r) => r.type === RESTRICTION_STOPS_BROADCASTS)) {
    return accountPauseReason('restriction');
  }
  return null;
}

/** The banner's lines, most serious first; none when the account is in good standing. */
export function accountHealthNotices(health: AccountHealthResponse): AccountHealthNotice[] {
  const notices: AccountHealthNotice[] = [];
  if (health.disconnected) {
    const { event, since } = health.disconnected;
    const words = DISCONNECTION_WORDS[event];
    notices.push({
      part: 'connection',
      severity: 'stop',
      text: words
        ? `${words.what} on ${healthTime(since)}: ${words.until}. ${PAUSED}.`
        : `Herald lost access to this business account (${event}) on ${healthTime(since)}. ${PAUSED}.`,
    });
  }
  if (health.review) {
    notices.push({
      part: 'review',
      severity: 'stop',
      text: `${reviewStop(health.review.decision)} (since ${healthTime(health.review.since)}). ${PAUSED}: resume them once it is approved.`,
    });
  }
  const { ban } = health;
  if (ban?.state === BAN_STOPS_SENDING) {
    notices.push({
      part: 'ban',
      severity: 'stop',
      text: `WhatsApp disabled this business account on ${healthTime(ban.date ?? ban.since)}. No messages can be sent from its numbers. Broadcasts that were sending or scheduled are paused: once WhatsApp reinstates the account, resume them yourself.`,
    });
  } else if (ban?.state === 'SCHEDULE_FOR_DISABLE') {
    notices.push({
      part: 'ban',
      severity: 'warning',
      text: `WhatsApp will disable this business account${ban.date ? ` on ${healthTime(ban.date)}` : ''} (notice received ${healthTime(ban.since)}). Messages still go out until then; after that nothing can be sent. Appeal in WhatsApp Manager.`,
    });
  } else if (ban) {
    notices.push({
      part: 'ban',
      severity: 'warning',
      text: `WhatsApp changed this business account's ban status to ${ban.state} on ${healthTime(ban.date ?? ban.since)}.`,
    });
  }
  const since = health.restricted_since ? ` since ${healthTime(health.restricted_since)}` : '';
  for (const restriction of health.restrictions) {
    const words = RESTRICTION_WORDS[restriction.type];
    notices.push(
      words
        ? {
            part: 'restriction',
            severity: words.stopsSending ? 'stop' : 'warning',
            text: `WhatsApp ${words.what}${since}${until(restriction.expires_at)}. ${words.stops}`,
          }
        : {
            part: 'restriction',
            severity: 'warning',
            text: `WhatsApp restricted this account (${restriction.type})${since}${until(restriction.expires_at)}.`,
          },
    );
  }
  if (health.violation) {
    notices.push({
      part: 'violation',
      severity: 'warning',
      text: `WhatsApp reported a policy violation on this account (${health.violation.type}) on ${healthTime(health.violation.at)}. Sending is not stopped, but further violations can lead to a restriction or a ban.`,
    });
  }
  return notices;
}
