import {
  BROADCAST_MESSAGES,
  BROADCAST_PERCENTAGE,
  LINK_MESSAGES,
  LinkDestinationSchema,
  parseSpendCap,
  sampleSize,
} from '@herald/contracts';
import { INITIAL_FOLLOW_UP, followUpErrors, followUpRequest } from './follow-up-form';
import type { FollowUpDraft, FollowUpErrors } from './follow-up-form';
import type {
  BroadcastAudience,
  BroadcastCreateRequest,
  BroadcastEstimateRequest,
  Tag,
} from '@herald/contracts';

export type RecipientMode = 'all' | 'filter' | 'segment';

/** The New broadcast screen's state. */
export type BroadcastFormState = {
  name: string;
  /** Herald's template id as the select holds it; '' when none is chosen. */
  templateId: string;
  /** Off: send at once. */
  scheduled: boolean;
  scheduledAt: Date | null;
  mode: RecipientMode;
  tagIds: number[];
  /** The saved segment of the Segment mode; null until one is chosen. */
  segmentId: number | null;
  percentage: number;
  /** Meta's id of the number to send from; '' until the user picks one (the first sendable is used). */
  phoneNumberId: string;
  /** Over what is left of the 24-hour messaging limit: send up to it and continue as it frees (on by default). */
  spreadOverLimit: boolean;
  /** Leave out +1 (US) numbers, to which Meta does not deliver marketing templates. */
  leaveOutUsNumbers: boolean;
  /**
   * An earlier broadcast's recipients (from its report's filter), frozen when sent; replaces mode, tags and
   * segment (the Recipients tabs give way to it, so the Segment mode is not offered with it).
   */
  retarget: BroadcastAudience | null;
  /** The optional spend cap as typed, in USD; '' for none (decision 052). */
  spendCap: string;
  /**
   * Where the template's tracked link leads, as typed (decision 091); asked, and sent, only for a template with a
   * tracked link button.
   */
  linkDestination: string;
  /** The optional follow-up: another template, later, to the recipients who did not read, reply or click. */
  followUp: FollowUpDraft;
};

/** Filter mode, 55%, send now. */
export const INITIAL_BROADCAST_FORM: BroadcastFormState = {
  name: '',
  templateId: '',
  scheduled: false,
  scheduledAt: null,
  mode: 'filter',
  tagIds: [],
  segmentId: null,
  percentage: BROADCAST_PERCENTAGE.default,
  phoneNumberId: '',
  spreadOverLimit: true,
  leaveOutUsNumbers: false,
  retarget: null,
  spendCap: '',
  linkDestination: '',
  followUp: INITIAL_FOLLOW_UP,
};

/** The contact total assumed while the real one is unknown. */
export const CONTACT_TOTAL_FALLBACK = 5000;

/** The contract's message for a tag filter with no tag (the server answers it too). */
export const TAGS_REQUIRED = 'Select at least one tag';

/** The contract's message for the Segment mode with no segment (the server answers it too). */
export const SEGMENT_REQUIRED = 'Choose a segment';

export type BroadcastFormErrors = Partial<
  Record<
    | 'name'
    | 'template'
    | 'schedule'
    | 'tags'
    | 'segment'
    | 'number'
    | 'recipients'
    | 'spendCap'
    | 'linkDestination',
    string
  >
> &
  FollowUpErrors;

/** Shown when the account has numbers but none of them can send. */
export const NO_SENDABLE_NUMBER = 'None of this account’s numbers can send a broadcast now (see why below).';

/** The link destination's message: required, then an http(s) address (LinkDestinationSchema); null when fine. */
export function linkDestinationError(value: string): string | null {
  if (value.trim() === '') return LINK_MESSAGES.destinationRequired;
  const parsed = LinkDestinationSchema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? LINK_MESSAGES.destinationInvalid);
}

/**
 * New broadcast's messages for what is missing, by field. `noSendableNumber`: the numbers are known and
 * none can send (with no number listed at all the server picks the account's own). `trackedLink`: the chosen
 * template has a tracked link button, so the link destination is required.
 */
export function validateBroadcastForm(
  state: BroadcastFormState,
  noSendableNumber = false,
  trackedLink = false,
): BroadcastFormErrors {
  const errors: BroadcastFormErrors = {};
  if (noSendableNumber) errors.number = NO_SENDABLE_NUMBER;
  if (state.name.trim() === '') errors.name = BROADCAST_MESSAGES.nameRequired;
  if (state.templateId === '') errors.template = BROADCAST_MESSAGES.templateRequired;
  if (state.scheduled && !state.scheduledAt) errors.schedule = BROADCAST_MESSAGES.scheduleRequired;
  if (!state.retarget && state.mode === 'filter' && state.tagIds.length === 0) errors.tags = TAGS_REQUIRED;
  if (!state.retarget && state.mode === 'segment' && state.segmentId === null)
    errors.segment = SEGMENT_REQUIRED;
  const spendCap = parseSpendCap(state.spendCap);
  if (!spendCap.ok) errors.spendCap = spendCap.message;
  const link = trackedLink ? linkDestinationError(state.linkDestination) : null;
  if (link) errors.linkDestination = link;
  return { ...errors, ...followUpErrors(state.followUp) };
}

/**
 * Whether the form names whom to send to: a retarget list, all contacts, at least one tag or a segment. Until
 * it does there is nothing to estimate, nor a limit to hold the audience against.
 */
export function audienceChosen(
  state: Pick<BroadcastFormState, 'retarget' | 'mode' | 'tagIds' | 'segmentId'>,
) {
  if (state.retarget || state.mode === 'all') return true;
  return state.mode === 'filter' ? state.tagIds.length > 0 : state.segmentId !== null;
}

/**
 * The audience fields of create and estimate: a retarget list, or all, tagged or a segment's contacts at the
 * percentage.
 */
function audienceOf(state: BroadcastFormState): Pick<BroadcastCreateRequest, 'recipients' | 'audience'> {
  if (state.retarget) return { audience: state.retarget };
  const { percentage } = state;
  if (state.mode === 'all') return { recipients: { type: 'all', percentage } };
  if (state.mode === 'segment')
    return { recipients: { type: 'segment', segment_id: state.segmentId ?? 0, percentage } };
  return { recipients: { type: 'filtered', tag_ids: state.tagIds, percentage } };
}

/**
 * Broadcast create payload; the scheduled time in Unix seconds. Call after validating, with
 * the number the screen shows as chosen in `phoneNumberId` ('' leaves it to the server), and `linkDestination`
 * '' unless the template has a tracked link (then it is sent as `link_destination`), and the follow-up as
 * effectiveFollowUp gives it.
 */
export function broadcastPayload(state: BroadcastFormState): BroadcastCreateRequest {
  return {
    name: state.name.trim(),
    template_id: Number(state.templateId),
    ...audienceOf(state),
    ...scheduledTimeOf(state),
    ...(state.phoneNumberId ? { phone_number_id: state.phoneNumberId } : {}),
    spread_over_limit: state.spreadOverLimit,
    leave_out_us_numbers: state.leaveOutUsNumbers,
    ...spendCapOf(state),
    ...(state.linkDestination.trim() ? { link_destination: state.linkDestination.trim() } : {}),
    ...followUpOf(state),
  };
}

/** The payload's follow_up, only while 'Send a follow-up' is ticked. */
function followUpOf(state: BroadcastFormState): Pick<BroadcastCreateRequest, 'follow_up'> {
  const followUp = followUpRequest(state.followUp);
  return followUp ? { follow_up: followUp } : {};
}

/** The payload's spend_cap: the typed amount, left out when there is none (or it does not read as one). */
function spendCapOf(state: BroadcastFormState): Pick<BroadcastCreateRequest, 'spend_cap'> {
  const parsed = parseSpendCap(state.spendCap);
  return parsed.ok && parsed.value !== null ? { spend_cap: parsed.value } : {};
}

/**
 * POST /broadcast/estimate/ for what the form holds now, with `leaveOutUsNumbers` as given (the screen asks
 * both ways: without, to count the US numbers; with, for the figures once they are left out). Null while the
 * audience is incomplete (a tag filter with no tag, the Segment mode with no segment), when there is nothing to
 * estimate.
 */
export function estimateRequest(
  state: BroadcastFormState,
  leaveOutUsNumbers: boolean,
): BroadcastEstimateRequest | null {
  if (!audienceChosen(state)) return null;
  return {
    ...(state.templateId ? { template_id: Number(state.templateId) } : {}),
    ...audienceOf(state),
    ...(state.phoneNumberId ? { phone_number_id: state.phoneNumberId } : {}),
    leave_out_us_numbers: leaveOutUsNumbers,
    ...scheduledTimeOf(state),
  };
}

/** The scheduled start in Unix seconds, when the broadcast is scheduled. */
function scheduledTimeOf(state: BroadcastFormState): { scheduled_time?: number } {
  return state.scheduled && state.scheduledAt
    ? { scheduled_time: Math.floor(state.scheduledAt.getTime() / 1000) }
    : {};
}

export type RecipientCount = {
  /**
   * All → round(total × percentage / 100); filter → the sum of the chosen tags' counts; segment → round(its
   * contacts × percentage / 100).
   */
  selected: number;
  /** How many the percentage then gives (of the contact total, the tags' sum or the segment's contacts). */
  sampled: number;
  /** The audience the percentage applies to: the contact total, the tags' sum or the segment's contacts. */
  audience: number;
};

/**
 * The figures with the server's count of who is sent to (opted-out contacts and left-out US numbers removed, a
 * contact in several tags once) in place of the local sum: all and segment → the big figure; filter → what the
 * percentage gives. Local figures stay while the server has not answered the form as it is now.
 */
export function withSentCount(
  count: RecipientCount,
  mode: RecipientMode,
  sent: number | undefined,
): RecipientCount {
  if (sent === undefined) return count;
  return mode === 'filter' ? { ...count, sampled: sent } : { ...count, selected: sent, sampled: sent };
}

/**
 * The Selected Recipients figures. `total` is the real contact count, undefined while unknown; `segmentContacts`
 * the chosen segment's contacts, undefined while unknown (0 is shown then: the server's count replaces it).
 */
export function recipientCount(
  state: Pick<BroadcastFormState, 'mode' | 'tagIds' | 'percentage'>,
  total: number | undefined,
  tags: readonly Tag[],
  segmentContacts?: number,
): RecipientCount {
  if (state.mode !== 'filter') {
    const audience = state.mode === 'all' ? (total ?? CONTACT_TOTAL_FALLBACK) : (segmentContacts ?? 0);
    const selected = sampleSize(audience, state.percentage);
    return { selected, sampled: selected, audience };
  }
  const chosen = new Set(state.tagIds);
  const audience = tags.filter((tag) => chosen.has(tag.id)).reduce((sum, tag) => sum + tag.count, 0);
  return { selected: audience, sampled: sampleSize(audience, state.percentage), audience };
}
