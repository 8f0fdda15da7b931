import type { SandboxContext } from '../context';
import type { StoredMedia } from '../media/media-store';
import type { SavedExpiries } from '../messages/message-expiry';
import type { SavedReach } from '../messages/reach-window';
import type { SavedUserIds } from '../messages/user-ids';
import type { SavedStatuses } from '../messages/status-emitter';
import type { StateRecords } from '../state';
import type { PendingReview } from '../templates/review-scheduler';
import type { SavedTemplateAnalytics } from '../templates/template-analytics-ledger';
import type { StoredTemplate } from '../templates/template-store';
import type { UploadSession } from '../uploads/upload-store';
import type { SavedDelivery } from '../webhooks/webhook-sender';

export const STATE_DOCUMENT_VERSION = 1;

/** An upload session as state.json keeps it; its bytes live in a file of their own beside it. */
export type StoredUpload = Omit<UploadSession, 'chunks'>;

/** Everything a restarted sandbox needs to carry on: the content of state.json. */
export interface StateDocument {
  version: typeof STATE_DOCUMENT_VERSION;
  savedAt: string;
  records: StateRecords;
  templates: { sequence: number; templates: StoredTemplate[] };
  uploads: StoredUpload[];
  media: StoredMedia[];
  reviews: PendingReview[];
  statuses: SavedStatuses;
  /** Webhooks posted but not yet answered 2xx (Herald was down, or the stop came mid-retry). */
  webhooks: SavedDelivery[];
  /** Users each portfolio reached in the moving 24 hours, and open service windows (absent in older files). */
  reach?: SavedReach;
  /** BSUIDs tests named for numbers (absent in older files). */
  userIds?: SavedUserIds;
  /** Undelivered messages still to expire, and the TTL clock's offset (absent in older files). */
  expiries?: SavedExpiries;
  /** Recipients a test made unreachable (absent in older files). */
  unreachableRecipients?: string[];
  /** Template analytics' counts per template and day (absent in older files). */
  templateAnalytics?: SavedTemplateAnalytics;
}

/** The document plus the upload bytes, taken in one synchronous step so both describe the same moment. */
export interface CapturedState {
  document: StateDocument;
  uploadBytes: Map<string, { offset: number; chunks: Buffer[] }>;
}

export function captureState(ctx: SandboxContext): CapturedState {
  const sessions = ctx.state.uploads.records();
  return {
    document: {
      version: STATE_DOCUMENT_VERSION,
      savedAt: new Date().toISOString(),
      records: ctx.state.records(),
      templates: ctx.state.templates.records(),
      uploads: sessions.map(({ chunks: _chunks, ...session }) => session),
      media: ctx.state.media.records(),
      reviews: ctx.reviews.pendingWithDue(),
      statuses: ctx.messaging.statuses.save(),
      webhooks: ctx.webhooks.pendingDeliveries(),
      reach: ctx.messaging.reach.save(),
      userIds: ctx.messaging.userIds.save(),
      expiries: ctx.messaging.expiry.save(),
      unreachableRecipients: ctx.messaging.unreachable.list(),
      templateAnalytics: ctx.messaging.templateAnalytics.save(),
    },
    uploadBytes: new Map(sessions.map((s) => [s.id, { offset: s.offset, chunks: [...s.chunks] }])),
  };
}

/** Puts a saved state back: records, then the reviews and statuses that were still to come. */
export function restoreState(
  ctx: SandboxContext,
  document: StateDocument,
  uploadBytes: (session: StoredUpload) => Buffer | null,
): void {
  ctx.state.restore(document.records);
  ctx.state.templates.restore(document.templates);
  ctx.state.uploads.restore(
    document.uploads.map((session) => {
      const bytes = uploadBytes(session);
      return { ...session, chunks: bytes === null || bytes.length === 0 ? [] : [bytes] };
    }),
  );
  ctx.state.media.restore(document.media);
  for (const review of document.reviews) {
    if (ctx.state.templates.find(review.templateId)?.status === 'PENDING') {
      ctx.reviews.scheduleAt(review.templateId, review.due);
    }
  }
  ctx.messaging.reach.restore(document.reach);
  ctx.messaging.userIds.restore(document.userIds);
  // Before the statuses resume: those still to come count on top of the saved counts.
  ctx.messaging.templateAnalytics.restore(document.templateAnalytics);
  ctx.webhooks.resume(document.webhooks);
  ctx.messaging.statuses.restore(document.statuses);
  ctx.messaging.unreachable.restore(document.unreachableRecipients);
  // Last: messages whose TTL passed while the sandbox was down expire at once, after their own statuses.
  ctx.messaging.expiry.restore(document.expiries);
}

/** A parsed state.json, checked just enough that a foreign or older file fails loudly rather than oddly. */
export function parseStateDocument(text: string, file: string): StateDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); move it away to start empty`);
  }
  const doc = value as Partial<StateDocument> | null;
  if (doc === null || typeof doc !== 'object' || doc.version !== STATE_DOCUMENT_VERSION) {
    throw new Error(`${file} is not a sandbox state file of version ${STATE_DOCUMENT_VERSION}`);
  }
  const lists: Array<[string, unknown]> = [
    ['records.wabas', doc.records?.wabas],
    ['records.tokens', doc.records?.tokens],
    ['templates.templates', doc.templates?.templates],
    ['uploads', doc.uploads],
    ['media', doc.media],
    ['reviews', doc.reviews],
    ['statuses.messages', doc.statuses?.messages],
    ['statuses.queue', doc.statuses?.queue],
    ['webhooks', doc.webhooks],
  ];
  for (const [name, list] of lists) {
    if (!Array.isArray(list)) throw new Error(`${file}: ${name} must be a list`);
  }
  return doc as StateDocument;
}
