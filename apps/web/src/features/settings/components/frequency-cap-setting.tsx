import {
  accountSettingsSchema,
  DEFAULT_ACCOUNT_SETTINGS,
  FREQUENCY_CAP_BOUNDS,
  frequencyCapText,
  type AccountSettings,
  type AccountSettingsUpdate,
} from '@herald/contracts';
import { FormField } from '../../../components/form-field';
import { CheckboxSetting } from './setting-controls';

/** The cap as the user is editing it: the numbers as typed, kept while it is off so ticking it again restores them. */
export type FrequencyCapDraft = { on: boolean; messages: string; days: string };

type CapField = 'frequency_cap_messages' | 'frequency_cap_days';

/** What the control starts from: the stored cap, or the default number of messages when there is none. */
export function frequencyCapDraft(stored: AccountSettings): FrequencyCapDraft {
  return {
    on: stored.frequency_cap_messages !== null,
    messages: String(
      stored.frequency_cap_messages ??
        DEFAULT_ACCOUNT_SETTINGS.frequency_cap_messages ??
        FREQUENCY_CAP_BOUNDS.messages.min,
    ),
    days: String(stored.frequency_cap_days),
  };
}

// An empty field is no number at all: the contract refuses it with its own message instead of reading 0.
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** What Save sends: the cap, or null for none (the stored window is left as it is then). */
export function frequencyCapUpdate(draft: FrequencyCapDraft): Pick<AccountSettingsUpdate, CapField> {
  if (!draft.on) return { frequency_cap_messages: null };
  return { frequency_cap_messages: numberOf(draft.messages), frequency_cap_days: numberOf(draft.days) };
}

const SKIPPED_NOT_SENT = 'People over the cap are skipped, not sent.';

/** The hint under the checkbox: the cap in words while both numbers are ones the contract takes. */
function capHint(draft: FrequencyCapDraft): string {
  if (!draft.on)
    return 'No cap: people get every marketing broadcast they are in, however many they had lately.';
  const messages = accountSettingsSchema.shape.frequency_cap_messages.safeParse(numberOf(draft.messages));
  const days = accountSettingsSchema.shape.frequency_cap_days.safeParse(numberOf(draft.days));
  if (!messages.success || !days.success || messages.data === null) return SKIPPED_NOT_SENT;
  return `At most ${frequencyCapText(messages.data, days.data)}, across all broadcasts and numbers. ${SKIPPED_NOT_SENT}`;
}

type FrequencyCapSettingProps = {
  draft: FrequencyCapDraft;
  onChange: (draft: FrequencyCapDraft) => void;
  /** The refused fields' messages (the contract's or the server's), by the option's name. */
  errors: Partial<Record<CapField, string>>;
  /** Clears a field's message once the user edits it. */
  onFieldEdited: (field: CapField) => void;
  disabled?: boolean;
};

/**
 * The account's frequency cap on marketing messages: at most so many per person in so many days, across its
 * broadcasts and numbers, or no cap. Saved with the tab.
 */
export function FrequencyCapSetting({
  draft,
  onChange,
  errors,
  onFieldEdited,
  disabled,
}: FrequencyCapSettingProps) {
  const number = (field: CapField, key: 'messages' | 'days') => ({
    type: 'number',
    inputMode: 'numeric' as const,
    min: FREQUENCY_CAP_BOUNDS[key].min,
    max: FREQUENCY_CAP_BOUNDS[key].max,
    step: 1,
    value: draft[key],
    disabled,
    error: errors[field] ?? null,
    onChange: (event: { target: { value: string } }) => {
      onChange({ ...draft, [key]: event.target.value });
      onFieldEdited(field);
    },
  });
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 text-sm font-medium text-slate-700">Frequency cap</legend>
      <CheckboxSetting
        label="Limit marketing messages per person"
        checked={draft.on}
        onChange={(on) => onChange({ ...draft, on })}
        disabled={disabled}
        hint={capHint(draft)}
      />
      {draft.on ? (
        <div className="ml-7 grid max-w-sm grid-cols-1 gap-4 sm:grid-cols-2 sm:items-start">
          <FormField
            label="Marketing messages per person"
            {...number('frequency_cap_messages', 'messages')}
          />
          <FormField label="Days" {...number('frequency_cap_days', 'days')} />
        </div>
      ) : null}
    </fieldset>
  );
}
