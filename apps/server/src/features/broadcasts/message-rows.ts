import type { MessageTransition } from '@herald/contracts';

/**
 * The one writer of `broadcast_messages`: every INSERT, UPDATE and DELETE of a message row is a function here
 * (files in message-rows/), named after the change it makes, so the allowed changes and the lock order are
 * read in one place rather than kept by hand in each caller. Reads stay with their callers. The statements are
 * the callers' own, moved as they were.
 *
 * States and allowed changes: MESSAGE_TRANSITIONS in packages/contracts (broadcasts.ts), the rule for every
 * function below (MessageRowWrites checks each one's changes against it when compiling):
 *
 * | from                          | to                                             | by                                  |
 * | ----------------------------- | ---------------------------------------------- | ----------------------------------- |
 * | (none)                        | queued                                         | insertAudience, insertAudienceSlice |
 * | queued                        | sending                                        | markSending                         |
 * | queued                        | cancelled                                      | cancelQueued                        |
 * | sending                       | queued (attempt not counted)                   | requeueUnsent, giveBack             |
 * | sending                       | queued, or unconfirmed if requested            | takeOverInFlight                    |
 * | sending                       | queued (with a delay)                          | retryLater                          |
 * | sending, unconfirmed, unknown | accepted, held                                 | settleAccepted                      |
 * | sending                       | failed, unconfirmed, limited, n.o.w., skipped  | settleFinal                         |
 * | unconfirmed                   | unknown                                        | markUnknown                         |
 * | limited                       | queued                                         | requeueLimited                      |
 * | any not final                 | sent, delivered, read, failed, limited, n.o.w. | applyStatuses (forward only)        |
 * | failed (by a status of Meta)  | delivered, read (the error kept)               | applyStatuses (decision 078)        |
 * | any of an ended broadcast     | (deleted)                                      | deleteForRetention                  |
 *
 * Writes that change no state: markRequested (requested_at), markSpendCounted (spend_counted), retireLimited
 * (a limited row's next attempt at infinity), recordReplies (reply_id, engaged_at, replied_at), applyStatuses
 * (a failure of a delivered or read row: its error and failed_at, decision 078), recordFirstClicks (clicked_at,
 * click_id, click_component) and noteClickComponent (click_component; decision 091).
 *
 * Lock order (decision 022): broadcast rows before message rows, each in id order. A function that locks
 * message rows itself does so in id order (LOCKED, message-rows/locks.ts) before its update; one given locked rows
 * says so, and its caller locks the broadcasts first (lockBroadcasts) and the rows next (lockMessageRows).
 */

export {
  giveBack,
  markRequested,
  markRequestedStatement,
  markSending,
  markSpendCounted,
  requeueUnsent,
  retryLater,
  settleAccepted,
  settleFinal,
  takeOverInFlight,
  type Claimed,
  type LeaseHolder,
} from './message-rows/sender';
export {
  applyStatuses,
  cancelQueued,
  markUnknown,
  recordReplies,
  requeueLimited,
  retireLimited,
} from './message-rows/outcomes';
export { deleteForRetention, insertAudience, insertAudienceSlice } from './message-rows/lifecycle';
export {
  noteClickComponent,
  recordFirstClicks,
  trackedClicksOfTemplate,
  type FirstClick,
} from './message-rows/clicks';
export {
  STATUS_MOVES_ROW,
  STATUS_TARGETS_SQL,
  statusParams,
  type IncomingStatus,
} from './message-rows/status-sql';

/**
 * The state changes each function makes, checked against contracts' MESSAGE_TRANSITIONS by the compiler: a
 * change added to a function here that the map does not allow fails the build. Types only; no runtime check.
 * applyStatuses lists one move per state it leaves (a status may take each further, as far as the map allows).
 */
export type MessageRowWrites = CheckedWrites<{
  markSending: [['queued', 'sending']];
  cancelQueued: [['queued', 'cancelled']];
  requeueUnsent: [['sending', 'queued']];
  giveBack: [['sending', 'queued']];
  takeOverInFlight: [['sending', 'queued'], ['sending', 'unconfirmed']];
  retryLater: [['sending', 'queued']];
  settleAccepted: [
    ['sending', 'accepted'],
    ['sending', 'held'],
    ['unconfirmed', 'accepted'],
    ['unconfirmed', 'held'],
    ['unknown', 'accepted'],
    ['unknown', 'held'],
  ];
  settleFinal: [
    ['sending', 'failed'],
    ['sending', 'unconfirmed'],
    ['sending', 'limited'],
    ['sending', 'not_on_whatsapp'],
    ['sending', 'skipped'],
  ];
  markUnknown: [['unconfirmed', 'unknown']];
  requeueLimited: [['limited', 'queued']];
  applyStatuses: [
    ['queued', 'sent'],
    ['sending', 'sent'],
    ['accepted', 'sent'],
    ['held', 'sent'],
    ['unconfirmed', 'sent'],
    ['unknown', 'sent'],
    ['cancelled', 'sent'],
    ['sent', 'delivered'],
    ['sent', 'read'],
    ['sent', 'failed'],
    ['sent', 'limited'],
    ['sent', 'not_on_whatsapp'],
    ['sent', 'expired'],
    ['delivered', 'read'],
    ['failed', 'delivered'],
    ['failed', 'read'],
    ['expired', 'delivered'],
    ['expired', 'read'],
  ];
}>;

type CheckedWrites<T extends Record<string, readonly MessageTransition[]>> = T;
