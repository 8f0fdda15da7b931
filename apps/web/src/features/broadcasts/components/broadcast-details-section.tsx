import { useId } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  MARKETING_TTL,
  MAX_SCHEDULE_AHEAD_SECONDS,
  formatMaxPrice,
  formatTimeToLive,
  templateLifecycleNotes,
} from '@herald/contracts';
import type { TemplateListItem } from '@herald/contracts';
import { DateTimePicker } from '../../../components/date-time-picker';
import { FormField } from '../../../components/form-field';
import type { BroadcastFormErrors, BroadcastFormState } from '../broadcast-form';
import { FieldError, SectionCard, inputClass, labelClass } from './section-card';

type BroadcastDetailsSectionProps = {
  state: BroadcastFormState;
  onChange: (patch: Partial<BroadcastFormState>) => void;
  errors: BroadcastFormErrors;
  /** The APPROVED templates; undefined while loading. */
  templates: TemplateListItem[] | undefined;
  /** Shown after the template: the link destination of a tracked link, 'Send from'. */
  children?: ReactNode;
};

// The server refuses more than a year ahead; a whole day less keeps every time of the last day allowed.
const SCHEDULE_AHEAD_MS = (MAX_SCHEDULE_AHEAD_SECONDS - 24 * 60 * 60) * 1000;

/** New broadcast: name, template, the number to send from, and the schedule toggle with its picker. */
export function BroadcastDetailsSection({
  state,
  onChange,
  errors,
  templates,
  children,
}: BroadcastDetailsSectionProps) {
  const templateId = useId();
  const templateNoteId = useId();
  const scheduleId = useId();
  const scheduleHintId = useId();
  const scheduleErrorId = useId();
  const noTemplates = templates !== undefined && templates.length === 0;
  const chosen = templates?.find((template) => String(template.id) === state.templateId);
  // What Meta said of the chosen template: a coming category changes what its messages cost.
  const templateNotes = chosen ? templateLifecycleNotes(chosen, { sending: true }) : [];

  return (
    <SectionCard
      title="Broadcast Details"
      description="Name the broadcast, choose its message and when it goes out."
    >
      <FormField
        label="Broadcast Name"
        placeholder="e.g. Summer sale announcement"
        value={state.name}
        maxLength={200}
        onChange={(event) => onChange({ name: event.target.value })}
        error={errors.name}
      />

      <div>
        <label htmlFor={templateId} className={labelClass}>
          Message Template
        </label>
        <select
          id={templateId}
          value={state.templateId}
          onChange={(event) => onChange({ templateId: event.target.value })}
          aria-invalid={errors.template ? true : undefined}
          aria-describedby={errors.template || noTemplates ? templateNoteId : undefined}
          className={inputClass(Boolean(errors.template))}
        >
          <option value="">{templates === undefined ? 'Loading templates...' : 'Select a template'}</option>
          {templates?.map((template) => (
            <option key={template.id} value={String(template.id)}>
              {template.template_name} ({template.language_code})
            </option>
          ))}
        </select>
        {errors.template ? (
          <FieldError id={templateNoteId}>{errors.template}</FieldError>
        ) : noTemplates ? (
          <p id={templateNoteId} className="mt-1 text-xs text-slate-500">
            No approved templates yet.{' '}
            <Link to="/template/create-template" className="font-medium text-emerald-700 hover:underline">
              Create one
            </Link>{' '}
            and send it for review first.
          </p>
        ) : null}
        {templateNotes.length > 0 ? (
          <p role="note" aria-label="What Meta said of this template" className="mt-1 text-xs text-amber-800">
            {templateNotes.map((note) => (
              <span key={note} className="block">
                {note}
              </span>
            ))}
          </p>
        ) : null}
        {chosen?.category === 'MARKETING' ? <TimeToLiveNote template={chosen} /> : null}
        {chosen?.category === 'MARKETING' && chosen.max_price_bid_amount ? (
          <MaxPriceNote template={chosen} bidAmount={chosen.max_price_bid_amount} />
        ) : null}
      </div>

      {children}

      <div>
        <div className="flex items-center justify-between gap-3">
          <div>
            <label htmlFor={scheduleId} className="text-sm font-medium text-slate-700">
              Schedule for later
            </label>
            <p id={scheduleHintId} className="text-xs text-slate-500">
              {state.scheduled
                ? 'Pick the day, then the time it starts.'
                : 'Off: the broadcast starts as soon as it is created.'}
            </p>
          </div>
          <input
            id={scheduleId}
            type="checkbox"
            role="switch"
            aria-describedby={scheduleHintId}
            checked={state.scheduled}
            onChange={(event) => onChange({ scheduled: event.target.checked })}
            className="peer relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-emerald-700 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
          />
        </div>
        {state.scheduled ? (
          <div className="mt-3">
            <DateTimePicker
              label="Scheduled date and time"
              value={state.scheduledAt}
              onChange={(scheduledAt) => onChange({ scheduledAt })}
              max={new Date(Date.now() + SCHEDULE_AHEAD_MS)}
              describedBy={errors.schedule ? scheduleErrorId : undefined}
            />
            {errors.schedule ? <FieldError id={scheduleErrorId}>{errors.schedule}</FieldError> : null}
          </div>
        ) : null}
      </div>
    </SectionCard>
  );
}

/** A marketing template's time-to-live, set on the template (where Meta keeps it), with the way to change it. */
function TimeToLiveNote({ template }: { template: TemplateListItem }) {
  const own = template.message_send_ttl_seconds ?? null;
  return (
    <p role="note" aria-label="Time-to-live" className="mt-1 text-xs text-slate-600">
      {`Time-to-live: ${formatTimeToLive(own ?? MARKETING_TTL.defaultSeconds)}${own === null ? " (WhatsApp's default)" : ''}. `}
      WhatsApp drops a message it could not deliver by then (through the Marketing Messages API).{' '}
      <Link to={`/templates/${template.id}`} className="font-medium text-emerald-700 hover:underline">
        Change it on the template
      </Link>
    </p>
  );
}

function MaxPriceNote({ template, bidAmount }: { template: TemplateListItem; bidAmount: number }) {
  return (
    <p role="note" aria-label="Maximum price" className="mt-1 text-xs text-slate-600">
      {`Maximum price: ${formatMaxPrice(bidAmount)} per delivered message. `}
      WhatsApp charges this or less for each delivery (through the Marketing Messages API).{' '}
      <Link to={`/templates/${template.id}`} className="font-medium text-emerald-700 hover:underline">
        Change it on the template
      </Link>
    </p>
  );
}
