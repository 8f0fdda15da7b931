import {
  accountSettingsUpdateSchema,
  type AccountSettingsResponse,
  type AccountSettingsUpdate,
} from '@herald/contracts';
import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import toast from 'react-hot-toast';
import { primaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { useSaveAccountSettingsMutation } from '../../../lib/account-settings-api';
import { errorText } from '../../../lib/error-text';
import { fieldErrors } from '../../../lib/field-errors';
import { SettingsSection } from './setting-controls';

type SettingsTabFormProps = {
  title: string;
  /** The selected account, or null: without one nothing can be saved. */
  wabaId: string | null;
  /** This tab's options as the user set them: only these are sent. */
  update: AccountSettingsUpdate;
  /** Runs with the stored whole after a successful save (the theme applies it at once). */
  onSaved?: (saved: AccountSettingsResponse) => void;
  /**
   * Each refused option's message, keyed by its name in `update`: the contract's, when a value is refused here
   * before any request, or the server's. Runs with {} when a save starts.
   */
  onFieldErrors?: (errors: Record<string, string>) => void;
  children: ReactNode;
};

/** The first message for each option the contract refuses in `update`; {} when every value may be sent. */
function refusedHere(update: AccountSettingsUpdate): Record<string, string> {
  const checked = accountSettingsUpdateSchema.safeParse(update);
  const found: Record<string, string> = {};
  if (checked.success) return found;
  for (const issue of checked.error.issues) found[String(issue.path[0] ?? '')] ??= issue.message;
  return found;
}

type Outcome = { tone: 'success' | 'error'; text: string } | null;

/**
 * One settings tab as a form with its Save button. The outcome is said twice on purpose: a toast for the
 * moment, and a line under the button that stays until the next change, so it is not missed.
 */
export function SettingsTabForm({
  title,
  wabaId,
  update,
  onSaved,
  onFieldErrors,
  children,
}: SettingsTabFormProps) {
  const [save, { isLoading }] = useSaveAccountSettingsMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (wabaId === null) return;
    setOutcome(null);
    // A value the server would refuse is named at once, and nothing of the tab is saved.
    const refused = refusedHere(update);
    onFieldErrors?.(refused);
    if (Object.keys(refused).length > 0) {
      setOutcome({ tone: 'error', text: `${title} were not saved: ${Object.values(refused).join('. ')}` });
      return;
    }
    try {
      const saved = await save({ wabaId, update }).unwrap();
      onSaved?.(saved);
      toast.success(`${title} saved`);
      setOutcome({ tone: 'success', text: `${title} saved.` });
    } catch (error) {
      onFieldErrors?.(fieldErrors(error));
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
