import type { AccountSettingsResponse, AccountSettingsUpdate } from '@herald/contracts';
import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import toast from 'react-hot-toast';
import { primaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { useSaveAccountSettingsMutation } from '../../../lib/account-settings-api';
import { errorText } from '../../../lib/error-text';
import { SettingsSection } from './setting-controls';

type SettingsTabFormProps = {
  title: string;
  /** The selected account, or null: without one nothing can be saved. */
  wabaId: string | null;
  /** This tab's options as the user set them: only these are sent. */
  update: AccountSettingsUpdate;
  /** Runs with the stored whole after a successful save (the theme applies it at once). */
  onSaved?: (saved: AccountSettingsResponse) => void;
  children: ReactNode;
};

type Outcome = { tone: 'success' | 'error'; text: string } | null;

/**
 * One settings tab as a form with its Save button. The outcome is said twice on purpose: a toast for the
 * moment, and a line under the button that stays until the next change, so it is not missed.
 */
export function SettingsTabForm({ title, wabaId, update, onSaved, children }: SettingsTabFormProps) {
  const [save, { isLoading }] = useSaveAccountSettingsMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (wabaId === null) return;
    setOutcome(null);
    try {
      const saved = await save({ wabaId, update }).unwrap();
      onSaved?.(saved);
      toast.success(`${title} saved`);
      setOutcome({ tone: 'success', text: `${title} saved.` });
    } catch (error) {
      const text = `${title} were not saved: ${errorText(error)}`;
      toast.error(text);
      setOutcome({ tone: 'error', text });
    }
  }

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(event)} onChange={() => setOutcome(null)}>
      <SettingsSection title={title}>
        {children}
        <div className="flex flex-wrap items-center gap-3 pt-2">
          <button type="submit" className={primaryButtonClass} disabled={isLoading || wabaId === null}>
            {isLoading ? 'Saving...' : 'Save'}
          </button>
          {wabaId === null ? (
            <p className="text-sm text-slate-500">
              Connect a WhatsApp Business account to save these settings.
            </p>
          ) : null}
        </div>
        {outcome ? <FormAlert tone={outcome.tone}>{outcome.text}</FormAlert> : null}
      </SettingsSection>
    </form>
  );
}
