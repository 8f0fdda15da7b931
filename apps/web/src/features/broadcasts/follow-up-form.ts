import {
  FOLLOW_UP_AUDIENCE,
  FOLLOW_UP_UNLESS,
  FollowUpRequestSchema,
  type FollowUpRequest,
  type FollowUpUnless,
} from '@herald/contracts';

/** New broadcast's follow-up as the Follow-up section holds it. */
export type FollowUpDraft = {
  /** 'Send a follow-up' is ticked: the rest is checked and sent. */
  on: boolean;
  /** Herald's template id as the select holds it; '' when none is chosen. */
  templateId: string;
  /** The hours as typed. */
  afterHours: string;
  unless: FollowUpUnless;
};

/** Off; once ticked, a day later to those who did not read it. */
export const INITIAL_FOLLOW_UP: FollowUpDraft = {
  on: false,
  templateId: '',
  afterHours: '24',
  unless: 'read',
};

export type FollowUpErrors = Partial<
  Record<'followUpTemplate' | 'followUpAfterHours' | 'followUpUnless', string>
>;

/** Whom the follow-up may go to: those who did not click only when this broadcast has a tracked link. */
export function followUpAudiences(trackedLink: boolean): FollowUpUnless[] {
  return FOLLOW_UP_UNLESS.filter((unless) => trackedLink || unless !== 'clicked');
}

/**
 * The draft as it is sent: 'did not click' falls back to 'did not read' once the template chosen for the broadcast
 * has no tracked link (the select no longer offers it).
 */
export function effectiveFollowUp(draft: FollowUpDraft, trackedLink: boolean): FollowUpDraft {
  return followUpAudiences(trackedLink).includes(draft.unless) ? draft : { ...draft, unless: 'read' };
}

/** The hours typed as a number for the contract ('' reads as 0, refused like any other value out of range). */
function hoursOf(draft: FollowUpDraft): number {
  return Number(draft.afterHours.trim());
}

function parsed(draft: FollowUpDraft) {
  return FollowUpRequestSchema.safeParse({
    template_id: draft.templateId,
    after_hours: hoursOf(draft),
    unless: draft.unless,
  });
}

/** The contract's messages for a ticked follow-up, by field; none when it is off. */
export function followUpErrors(draft: FollowUpDraft): FollowUpErrors {
  if (!draft.on) return {};
  const checked = parsed(draft);
  const errors: FollowUpErrors = {};
  if (checked.success) return errors;
  const keys = {
    template_id: 'followUpTemplate',
    after_hours: 'followUpAfterHours',
    unless: 'followUpUnless',
  } as const;
  for (const issue of checked.error.issues) {
    const key = keys[String(issue.path[0]) as keyof typeof keys];
    if (key) errors[key] ??= issue.message;
  }
  return errors;
}

/** The create payload's follow_up: the ticked draft as the contract reads it; null when off or not valid. */
export function followUpRequest(draft: FollowUpDraft): FollowUpRequest | null {
  if (!draft.on) return null;
  const checked = parsed(draft);
  return checked.success ? checked.data : null;
}

/** The server's refusals of the follow-up's fields (keyed as in the request), as the section's errors. */
export function followUpServerErrors(fields: Record<string, string>): FollowUpErrors {
  const errors: FollowUpErrors = {};
  if (fields.template_id) errors.followUpTemplate = fields.template_id;
  if (fields.after_hours) errors.followUpAfterHours = fields.after_hours;
  if (fields.unless) errors.followUpUnless = fields.unless;
  return errors;
}

/** '1 hour', '24 hours'. */
function hoursText(hours: number): string {
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/**
 * The section's line saying when the follow-up goes and to whom; null while the hours typed cannot be sent
 * (the field's message says why).
 */
export function followUpHint(draft: FollowUpDraft): string | null {
  const hours = FollowUpRequestSchema.shape.after_hours.safeParse(hoursOf(draft));
  if (!hours.success) return null;
  return (
    `The follow-up goes ${hoursText(hours.data)} after this broadcast starts, once it has completed, to the ` +
    `recipients who ${FOLLOW_UP_AUDIENCE[draft.unless]}. It obeys the frequency cap, the messaging limit and ` +
    'opt-outs of that moment.'
  );
}

/** The confirmation's Follow-up line: 'reminder after 24 hours to those who did not reply'. */
export function followUpConfirmText(request: FollowUpRequest, templateName: string): string {
  return `${templateName} after ${hoursText(request.after_hours)} to those who ${FOLLOW_UP_AUDIENCE[request.unless]}`;
}
