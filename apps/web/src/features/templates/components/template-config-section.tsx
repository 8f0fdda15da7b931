import { useId } from 'react';
import {
  MARKETING_TTL,
  MARKETING_TTL_CHOICES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LANGUAGES,
  formatTimeToLive,
  normalizeTemplateName,
  parseMaxPrice,
} from '@herald/contracts';
import { FieldMessage, FormSection } from './form-section';
import { fieldClass, labelClass } from './field-classes';
import type { TemplateFormState } from '../template-form-state';

type TemplateConfigSectionProps = {
  state: TemplateFormState;
  onChange: (patch: Partial<TemplateFormState>) => void;
  errorFor: (field: string) => string | undefined;
  /** Meta keeps the name and language of a submitted template: they are shown but cannot change. */
  lockIdentity: boolean;
  /** Whether the template had a maximum price when the form opened (Meta neither adds nor removes one later). */
  hadMaxPrice?: boolean;
  /** Whether the account may send through the Marketing Messages API; null: not known (the server decides). */
  mmApiOnboarded?: boolean | null;
};

function titleCase(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase();
}

/** Template Configuration: name (normalised as typed), category, language and a marketing time-to-live. */
export function TemplateConfigSection({
  state,
  onChange,
  errorFor,
  lockIdentity,
  hadMaxPrice = false,
  mmApiOnboarded = null,
}: TemplateConfigSectionProps) {
  const id = useId();
  const nameError = errorFor('name');
  const lockedNote = lockIdentity ? 'Submitted templates keep their name and language.' : null;
  return (
    <FormSection title="Template Configuration">
      <div>
        <label htmlFor={`${id}-name`} className={labelClass}>
          Template Name
        </label>
        <input
          id={`${id}-name`}
          value={state.templateName}
          placeholder="e.g. summer_sale"
          disabled={lockIdentity}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${id}-name-note`}
          onChange={(event) => onChange({ templateName: normalizeTemplateName(event.target.value) })}
          className={fieldClass(Boolean(nameError))}
        />
        {nameError ? (
          <FieldMessage id={`${id}-name-note`}>{nameError}</FieldMessage>
        ) : (
          <p id={`${id}-name-note`} className="mt-1 text-xs text-slate-500">
            {lockedNote ?? 'Lowercase letters and underscores; spaces become underscores.'}
          </p>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-category`} className={labelClass}>
            Category
          </label>
          <select
            id={`${id}-category`}
            value={state.selectedCategory}
            onChange={(event) => onChange({ selectedCategory: event.target.value })}
            className={fieldClass(Boolean(errorFor('category')))}
          >
            {TEMPLATE_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {titleCase(category)}
              </option>
            ))}
          </select>
          {errorFor('category') ? <FieldMessage>{errorFor('category')}</FieldMessage> : null}
        </div>
        <div>
          <label htmlFor={`${id}-language`} className={labelClass}>
            Language
          </label>
          <select
            id={`${id}-language`}
            value={state.selectedLanguage}
            disabled={lockIdentity}
            onChange={(event) => onChange({ selectedLanguage: event.target.value })}
            className={fieldClass(Boolean(errorFor('language')))}
          >
            {TEMPLATE_LANGUAGES.map((language) => (
              <option key={language.code} value={language.code}>
                {language.name} ({language.code})
              </option>
            ))}
          </select>
          {errorFor('language') ? <FieldMessage>{errorFor('language')}</FieldMessage> : null}
        </div>
      </div>
      {state.selectedCategory === 'MARKETING' ? (
        <TimeToLiveField
          value={state.timeToLiveSeconds}
          onChange={(timeToLiveSeconds) => onChange({ timeToLiveSeconds })}
          error={errorFor('message_send_ttl_seconds')}
        />
      ) : null}
      {state.selectedCategory === 'MARKETING' ? (
        <MaxPriceField
          fixed={lockIdentity ? (hadMaxPrice ? 'kept' : 'absent') : null}
          needsOnboarding={mmApiOnboarded === false}
          value={state.maxPriceText}
          onChange={(maxPriceText) => onChange({ maxPriceText })}
          error={errorFor('max_price_bid_amount')}
        />
      ) : null}
    </FormSection>
  );
}

type TimeToLiveFieldProps = {
  value: number | null;
  onChange: (seconds: number | null) => void;
  error: string | undefined;
};

/** How long WhatsApp keeps trying to deliver a marketing message; Meta's own default is the first choice. */
function TimeToLiveField({ value, onChange, error }: TimeToLiveFieldProps) {
  const id = useId();
  // A stored value outside the choices (set at Meta in 1-second steps) stays selectable as it is.
  const choices = MARKETING_TTL_CHOICES.filter((seconds) => seconds !== MARKETING_TTL.defaultSeconds);
  const extra = value !== null && !(choices as readonly number[]).includes(value) ? [value] : [];
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Message time-to-live
      </label>
      <select
        id={id}
        value={value === null ? '' : String(value)}
        aria-describedby={`${id}-note`}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
        className={fieldClass(Boolean(error))}
      >
        <option value="">{`${formatTimeToLive(MARKETING_TTL.defaultSeconds)} (WhatsApp's default)`}</option>
        {[...extra, ...choices].map((seconds) => (
          <option key={seconds} value={String(seconds)}>
            {formatTimeToLive(seconds)}
          </option>
        ))}
      </select>
      {error ? (
        <FieldMessage id={`${id}-note`}>{error}</FieldMessage>
      ) : (
        <p id={`${id}-note`} className="mt-1 text-xs text-slate-500">
          How long WhatsApp keeps trying to deliver a message to a phone that is off; then it drops it.
          Applies to sends through the Marketing Messages API.
        </p>
      )}
    </div>
  );
}

type MaxPriceFieldProps = {
  /** A submitted template: Meta adds no price to one created without ('absent') and removes none ('kept'). */
  fixed: 'absent' | 'kept' | null;
  /** The account is not onboarded to the Marketing Messages API: no price can be set. */
  needsOnboarding: boolean;
  value: string;
  onChange: (text: string) => void;
  error: string | undefined;
};

/** The most the business pays per delivered message through the Marketing Messages API; empty: the rate card. */
function MaxPriceField({ fixed, needsOnboarding, value, onChange, error }: MaxPriceFieldProps) {
  const id = useId();
  // The payload check speaks Meta's unit; what was typed is dollars, so a typing problem is said in dollars.
  const parsed = parseMaxPrice(value);
  const message = error ? (parsed.ok ? error : parsed.message) : undefined;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Maximum price per delivered message (USD)
      </label>
      <input
        id={id}
        value={value}
        inputMode="decimal"
        placeholder="Rate card"
        disabled={fixed === 'absent' || needsOnboarding}
        aria-invalid={message ? true : undefined}
        aria-describedby={`${id}-note`}
        onChange={(event) => onChange(event.target.value)}
        className={fieldClass(Boolean(message))}
      />
      {message ? (
        <FieldMessage id={`${id}-note`}>{message}</FieldMessage>
      ) : (
        <p id={`${id}-note`} className="mt-1 text-xs text-slate-500">
          {fixed === 'absent'
            ? 'WhatsApp takes a maximum price only when a template is created: create a new template to set one.'
            : needsOnboarding
              ? 'A maximum price applies to sends through the Marketing Messages API: onboard this account in Settings to set one.'
              : `WhatsApp charges this or less for each delivery through the Marketing Messages API, and may deliver fewer messages when it is below the rate card. ${
                  fixed === 'kept' ? 'It can be changed, not removed.' : 'Empty: the rate card.'
                }`}
        </p>
      )}
    </div>
  );
}
