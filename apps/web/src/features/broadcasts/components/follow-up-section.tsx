import { useId } from 'react';
import { FOLLOW_UP_AUDIENCE, FOLLOW_UP_MAX_HOURS, type FollowUpUnless } from '@herald/contracts';
import type { TemplateListItem } from '@herald/contracts';
import { FormField } from '../../../components/form-field';
import type { BroadcastFormErrors } from '../broadcast-form';
import { followUpHint, type FollowUpDraft } from '../follow-up-form';
import { FieldError, SectionCard, inputClass, labelClass } from './section-card';

type FollowUpSectionProps = {
  draft: FollowUpDraft;
  onChange: (patch: Partial<FollowUpDraft>) => void;
  errors: BroadcastFormErrors;
  /** The APPROVED templates, as the broadcast's own select lists them; undefined while loading. */
  templates: TemplateListItem[] | undefined;
  /** Whom it may go to ('clicked' only for a broadcast with a tracked link). */
  audiences: FollowUpUnless[];
};

/**
 * New broadcast: an optional follow-up, another template some hours later to the recipients who did not read,
 * reply or click. The server creates it as a broadcast of its own, which starts once this one has completed.
 */
export function FollowUpSection({ draft, onChange, errors, templates, audiences }: FollowUpSectionProps) {
  const toggleId = useId();
  const templateId = useId();
  const templateErrorId = useId();
  const unlessId = useId();
  const unlessErrorId = useId();
  const hint = followUpHint(draft);

  return (
    <SectionCard title="Follow-up">
      <div className="flex items-start gap-2">
        <input
          id={toggleId}
          type="checkbox"
          checked={draft.on}
          onChange={(event) => onChange({ on: event.target.checked })}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-emerald-600"
        />
        <label htmlFor={toggleId} className="cursor-pointer text-sm font-medium text-slate-700">
          Send a follow-up
        </label>
      </div>

      {draft.on ? (
        <>
          <div>
            <label htmlFor={templateId} className={labelClass}>
              Follow-up template
            </label>
            <select
              id={templateId}
              value={draft.templateId}
              onChange={(event) => onChange({ templateId: event.target.value })}
              aria-invalid={errors.followUpTemplate ? true : undefined}
              aria-describedby={errors.followUpTemplate ? templateErrorId : undefined}
              className={inputClass(Boolean(errors.followUpTemplate))}
            >
              <option value="">
                {templates === undefined ? 'Loading templates...' : 'Select a template'}
              </option>
              {templates?.map((template) => (
                <option key={template.id} value={String(template.id)}>
                  {template.template_name} ({template.language_code})
                </option>
              ))}
            </select>
            {errors.followUpTemplate ? (
              <FieldError id={templateErrorId}>{errors.followUpTemplate}</FieldError>
            ) : null}
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="After (hours)"
              type="number"
              inputMode="numeric"
              min={1}
              max={FOLLOW_UP_MAX_HOURS}
              step={1}
              value={draft.afterHours}
              onChange={(event) => onChange({ afterHours: event.target.value })}
              error={errors.followUpAfterHours}
            />
            <div>
              <label htmlFor={unlessId} className={labelClass}>
                Send to those who
              </label>
              <select
                id={unlessId}
                value={draft.unless}
                onChange={(event) => onChange({ unless: event.target.value as FollowUpUnless })}
                aria-invalid={errors.followUpUnless ? true : undefined}
                aria-describedby={errors.followUpUnless ? unlessErrorId : undefined}
                className={inputClass(Boolean(errors.followUpUnless))}
              >
                {audiences.map((unless) => (
                  <option key={unless} value={unless}>
                    {FOLLOW_UP_AUDIENCE[unless]}
                  </option>
                ))}
              </select>
              {errors.followUpUnless ? (
                <FieldError id={unlessErrorId}>{errors.followUpUnless}</FieldError>
              ) : null}
            </div>
          </div>

          {hint ? (
            <p data-testid="follow-up-hint" className="text-xs text-slate-600">
              {hint}
            </p>
          ) : null}
        </>
      ) : null}
    </SectionCard>
  );
}
