import { BROADCAST_MESSAGES, BROADCAST_PERCENTAGE, sampleSize } from '@herald/contracts';
import type { BroadcastCreateRequest, Tag } from '@herald/contracts';

export type RecipientMode = 'all' | 'filter';

/** The New broadcast screen's state (spec §4 Broadcast). */
export type BroadcastFormState = {
  name: string;
  /** Herald's template id as the select holds it; '' when none is chosen. */
  templateId: string;
  /** Off: send at once. */
  scheduled: boolean;
  scheduledAt: Date | null;
  mode: RecipientMode;
  tagIds: number[];
  percentage: number;
};

/** Spec §4: filter mode, 55%, send now. */
export const INITIAL_BROADCAST_FORM: BroadcastFormState = {
  name: '',
  templateId: '',
  scheduled: false,
  scheduledAt: null,
  mode: 'filter',
  tagIds: [],
  percentage: BROADCAST_PERCENTAGE.default,
};

/** Spec §9: the contact total assumed while the real one is unknown. */
export const CONTACT_TOTAL_FALLBACK = 5000;

/** The contract's message for a tag filter with no tag (the server answers it too). */
export const TAGS_REQUIRED = 'Select at least one tag';

export type BroadcastFormErrors = Partial<Record<'name' | 'template' | 'schedule' | 'tags', string>>;

/** Spec §5 Broadcast: the messages for what is missing, by field. */
export function validateBroadcastForm(state: BroadcastFormState): BroadcastFormErrors {
  const errors: BroadcastFormErrors = {};
  if (state.name.trim() === '') errors.name = BROADCAST_MESSAGES.nameRequired;
  if (state.templateId === '') errors.template = BROADCAST_MESSAGES.templateRequired;
  if (state.scheduled && !state.scheduledAt) errors.schedule = BROADCAST_MESSAGES.scheduleRequired;
  if (state.mode === 'filter' && state.tagIds.length === 0) errors.tags = TAGS_REQUIRED;
  return errors;
}

/** Spec §3 Broadcast create payload; the scheduled time in Unix seconds (spec §9). Call after validating. */
export function broadcastPayload(state: BroadcastFormState): BroadcastCreateRequest {
  const recipients: BroadcastCreateRequest['recipients'] =
    state.mode === 'all'
      ? { type: 'all', percentage: state.percentage }
      : { type: 'filtered', tag_ids: state.tagIds, percentage: state.percentage };
  return {
    name: state.name.trim(),
    template_id: Number(state.templateId),
    recipients,
    ...(state.scheduled && state.scheduledAt
      ? { scheduled_time: Math.floor(state.scheduledAt.getTime() / 1000) }
      : {}),
  };
}

export type RecipientCount = {
  /** Spec §9: all → round(total × percentage / 100); filter → the sum of the chosen tags' counts. */
  selected: number;
  /** How many the percentage then gives (spec §9's figure for 'all'; sampled from the tags for 'filter'). */
  sampled: number;
  /** The audience the percentage applies to: the contact total, or the tags' sum. */
  audience: number;
};

/** The Selected Recipients figures. `total` is the real contact count, undefined while unknown. */
export function recipientCount(
  state: Pick<BroadcastFormState, 'mode' | 'tagIds' | 'percentage'>,
  total: number | undefined,
  tags: readonly Tag[],
): RecipientCount {
  if (state.mode === 'all') {
    const audience = total ?? CONTACT_TOTAL_FALLBACK;
    const selected = sampleSize(audience, state.percentage);
    return { selected, sampled: selected, audience };
  }
  const chosen = new Set(state.tagIds);
  const audience = tags.filter((tag) => chosen.has(tag.id)).reduce((sum, tag) => sum + tag.count, 0);
  return { selected: audience, sampled: sampleSize(audience, state.percentage), audience };
}
