import { useId } from 'react';
import type { ReactNode } from 'react';
import { TEMPLATE_LIMITS, canAddButton, isDynamicUrl, withUrlVariable } from '@herald/contracts';
import type { ButtonType } from '@herald/contracts';
import { PlusIcon, TrashIcon } from '../../../components/icons';
import { FieldMessage, FormSection } from './form-section';
import { fieldClass, iconButtonClass, labelClass, smallButtonClass } from './field-classes';
import type { FormButton } from '../template-form-state';

type ButtonsSectionProps = {
  buttons: FormButton[];
  onChange: (buttons: FormButton[]) => void;
  errorFor: (field: string) => string | undefined;
  /**
   * The URL a button holds to be Herald's tracked link (GET /broadcast/links/ `tracked_button_url`); null or
   * absent while unknown (the server did not answer): no tracked link is offered then.
   */
  trackedButtonUrl?: string | null;
};

export const BUTTON_TYPE_LABELS: Record<ButtonType, string> = {
  QUICK_REPLY: 'Quick Reply',
  URL: 'URL',
  PHONE_NUMBER: 'Phone Number',
};

const ADD_ORDER: readonly ButtonType[] = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'];

/** An example label per kind of button (a phone button read 'e.g. Visit website'). */
const TEXT_PLACEHOLDERS: Record<ButtonType, string> = {
  QUICK_REPLY: 'e.g. Yes, please',
  URL: 'e.g. Visit website',
  PHONE_NUMBER: 'e.g. Call us',
};

/** The example value Meta reviews a tracked link with: a recipient's own part of the link. */
export const TRACKED_LINK_EXAMPLE = 'abc123';
export const TRACKED_LINK_ACTION = 'Use a tracked link';
export const TRACKED_LINK_HINT =
  'Herald counts who clicks: each recipient gets their own link, and the broadcast says where it leads.';

/** Interactive Buttons (at most 10; one phone number; two URLs). */
export function ButtonsSection({
  buttons,
  onChange,
  errorFor,
  trackedButtonUrl = null,
}: ButtonsSectionProps) {
  function add(type: ButtonType) {
    const check = canAddButton(buttons, type);
    if (!check.ok) {
      window.alert(check.message);
      return;
    }
    const key = buttons.reduce((max, b) => Math.max(max, b.key), -1) + 1;
    onChange([
      ...buttons,
      { key, sub_type: type, text: '', url: '', phone_number: '', example: '', isDynamicUrl: false },
    ]);
  }

  const update = (index: number, patch: Partial<FormButton>) =>
    onChange(buttons.map((b, i) => (i === index ? { ...b, ...patch } : b)));

  return (
    <FormSection
      title="Interactive Buttons"
      description={`Up to ${TEMPLATE_LIMITS.maxButtons} buttons: quick replies, up to 2 links and 1 phone number.`}
      actions={ADD_ORDER.map((type) => (
        <button key={type} type="button" className={smallButtonClass} onClick={() => add(type)}>
          <PlusIcon width={14} height={14} />
          Add {BUTTON_TYPE_LABELS[type]}
        </button>
      ))}
    >
      {errorFor('buttons') ? <FieldMessage>{errorFor('buttons')}</FieldMessage> : null}
      {buttons.length === 0 ? <p className="text-sm text-slate-500">No buttons added.</p> : null}
      {buttons.map((button, index) => (
        <ButtonRow
          key={button.key}
          index={index}
          button={button}
          errorFor={errorFor}
          trackedButtonUrl={trackedButtonUrl}
          onChange={(patch) => update(index, patch)}
          onRemove={() => onChange(buttons.filter((_, i) => i !== index))}
        />
      ))}
    </FormSection>
  );
}

type ButtonRowProps = {
  index: number;
  button: FormButton;
  errorFor: (field: string) => string | undefined;
  trackedButtonUrl: string | null;
  onChange: (patch: Partial<FormButton>) => void;
  onRemove: () => void;
};

function ButtonRow({ index, button, errorFor, trackedButtonUrl, onChange, onRemove }: ButtonRowProps) {
  const id = useId();
  const name = `Button ${index + 1}`;
  const error = (field: string) => errorFor(`buttons.${index}.${field}`);
  const dynamic = isDynamicUrl(button.url);
  return (
    <div role="group" aria-label={name} className="rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="mb-2 flex items-center justify-between gap-2">
        <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          {name} · {BUTTON_TYPE_LABELS[button.sub_type]}
        </span>
        <button
          type="button"
          aria-label={`Remove ${name}`}
          title="Remove button"
          className={iconButtonClass}
          onClick={onRemove}
        >
          <TrashIcon width={18} height={18} />
        </button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-text`} label="Button Text" error={error('text')}>
          <input
            id={`${id}-text`}
            value={button.text}
            maxLength={TEMPLATE_LIMITS.buttonTextMaxLength}
            placeholder={TEXT_PLACEHOLDERS[button.sub_type]}
            aria-invalid={error('text') ? true : undefined}
            onChange={(event) => onChange({ text: event.target.value })}
            className={fieldClass(Boolean(error('text')))}
          />
        </Field>
        {button.sub_type === 'URL' ? (
          <Field id={`${id}-url`} label="Website URL" error={error('url')}>
            <input
              id={`${id}-url`}
              type="url"
              value={button.url}
              placeholder="https://example.com/offers"
              aria-invalid={error('url') ? true : undefined}
              onChange={(event) =>
                onChange({ url: event.target.value, isDynamicUrl: isDynamicUrl(event.target.value) })
              }
              className={fieldClass(Boolean(error('url')))}
            />
          </Field>
        ) : null}
        {button.sub_type === 'PHONE_NUMBER' ? (
          <Field id={`${id}-phone`} label="Phone Number" error={error('phone_number')}>
            <input
              id={`${id}-phone`}
              type="tel"
              value={button.phone_number}
              placeholder="+14155550123"
              aria-invalid={error('phone_number') ? true : undefined}
              onChange={(event) => onChange({ phone_number: event.target.value })}
              className={fieldClass(Boolean(error('phone_number')))}
            />
          </Field>
        ) : null}
      </div>
      {button.sub_type === 'URL' ? (
        <div className="mt-3 space-y-3">
          {trackedButtonUrl ? (
            <TrackedLinkOffer
              hintId={`${id}-tracked-hint`}
              tracked={button.url.trim().toLowerCase() === trackedButtonUrl.toLowerCase()}
              onUse={() =>
                onChange({ url: trackedButtonUrl, isDynamicUrl: true, example: TRACKED_LINK_EXAMPLE })
              }
            />
          ) : null}
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={dynamic}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? { url: withUrlVariable(button.url), isDynamicUrl: true }
                    : { url: button.url.replace(/\{\{[^}]*\}\}?$/, ''), isDynamicUrl: false },
                )
              }
              className="size-4 rounded border-slate-300 accent-emerald-600"
            />
            Dynamic URL
          </label>
          {dynamic ? (
            <Field id={`${id}-example`} label="Example Values" error={error('example')}>
              <input
                id={`${id}-example`}
                value={button.example}
                placeholder="e.g. summer, winter"
                aria-describedby={`${id}-example-hint`}
                onChange={(event) => onChange({ example: event.target.value })}
                className={fieldClass(Boolean(error('example')))}
              />
              <p id={`${id}-example-hint`} className="mt-1 text-xs text-slate-500">
                Comma-separated values that replace {'{{1}}'} at the end of the URL.
              </p>
            </Field>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * By a URL button's URL: 'Use a tracked link' fills it with Herald's tracked URL (a dynamic URL, so its example
 * shows), with a line on what that does. The action is left out once the URL is the tracked one.
 */
function TrackedLinkOffer({
  hintId,
  tracked,
  onUse,
}: {
  hintId: string;
  tracked: boolean;
  onUse: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      {tracked ? null : (
        <button type="button" className={smallButtonClass} aria-describedby={hintId} onClick={onUse}>
          {TRACKED_LINK_ACTION}
        </button>
      )}
      <p id={hintId} className="text-xs text-slate-500">
        {TRACKED_LINK_HINT}
      </p>
    </div>
  );
}

function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {error ? <FieldMessage>{error}</FieldMessage> : null}
    </div>
  );
}
