import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useSelector, useStore } from 'react-redux';
import toast from 'react-hot-toast';
import { IMPORT_MESSAGES } from '@herald/contracts';
import type { ImportResult, PhoneCountry } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { DownloadIcon } from '../../../components/icons';
import { ModalDialog } from '../../../components/modal-dialog';
import { api } from '../../../lib/api';
import type { SessionApi } from '../../../lib/base-query';
import { CONTACT_TEMPLATE_FILE_NAME, CONTACT_TEMPLATE_HREF } from '../contact-template';
import { importContacts } from '../import-contacts';
import { businessCountry, DefaultCountrySelect } from './default-country-select';

/** The part of the app's state the dialog reads: the selected account's numbers, as sign-in listed them. */
type WithSelectedAccount = {
  waba: { selectedWabaAccount: { details: Array<Record<string, unknown>> } | null };
};

/** Import rules, checked before anything is sent; answers the message to show, if any. */
function checkImport(file: File | null, tag: string): string | null {
  if (!file) return IMPORT_MESSAGES.noFile;
  if (!file.name.toLowerCase().endsWith('.csv')) return IMPORT_MESSAGES.notCsv;
  if (!tag.trim()) return IMPORT_MESSAGES.noTag;
  return null;
}

function successText({ created, updated }: ImportResult): string {
  const count = (value: number) => value.toLocaleString('en-US');
  return `Contacts imported: ${count(created)} added, ${count(updated)} updated`;
}

/**
 * Import dialog: a CSV file, a tag, 'Download template'. The upload runs through XMLHttpRequest
 * so it can show progress; success closes the dialog and refreshes the contacts and tag counts.
 */
export function ImportContactsDialog({ onClose }: { onClose: () => void }) {
  const store = useStore();
  const fileInputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [tag, setTag] = useState('');
  // The business number's country: a business's customers mostly write numbers the way its own is written.
  const firstNumber = useSelector(
    (state: WithSelectedAccount) => state.waba.selectedWabaAccount?.details[0]?.display_phone_number,
  );
  const [country, setCountry] = useState<PhoneCountry>(() => businessCountry(firstNumber));
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<{ rows: string[]; summary: string | null } | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = checkImport(file, tag);
    setRowErrors(null);
    setMessage(problem);
    if (problem || !file) return;

    setBusy(true);
    setProgress(0);
    const outcome = await importContacts({
      file,
      tag: tag.trim(),
      defaultCountry: country,
      session: store as SessionApi,
      onProgress: setProgress,
    });
    setBusy(false);
    if (outcome.ok) {
      store.dispatch(api.util.invalidateTags(['Contacts', 'Tags']));
      toast.success(successText(outcome.result));
      onClose();
    } else if ('rows' in outcome.failure) {
      setRowErrors(outcome.failure);
    } else {
      setMessage(outcome.failure.message);
    }
  }

  const percent = Math.round(progress * 100);
  return (
    <ModalDialog
      title="Import Contacts"
      description="Upload a CSV file with the columns name, number, age, gender, address, post_code and email; any other column is kept as a custom one. A tags column gives each contact its own tags, separated by semicolons (Newsletter;Wholesale), besides the Tag below. Numbers without their country code are read as numbers of the default country."
      onClose={onClose}
      busy={busy}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="space-y-4">
        <div>
          <div className="mb-1.5 flex items-center justify-between gap-2">
            <label htmlFor={fileInputId} className="block text-sm font-medium text-slate-700">
              CSV File
            </label>
            <a
              href={CONTACT_TEMPLATE_HREF}
              download={CONTACT_TEMPLATE_FILE_NAME}
              className="inline-flex items-center gap-1 text-sm font-medium text-emerald-700 hover:text-emerald-800 hover:underline"
            >
              <DownloadIcon width={16} height={16} />
              Download template
            </a>
          </div>
          <input
            id={fileInputId}
            type="file"
            accept=".csv,text/csv"
            disabled={busy}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setMessage(null);
              setRowErrors(null);
            }}
            className="block w-full cursor-pointer rounded-lg border border-slate-300 bg-white text-sm text-slate-700 shadow-xs file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-slate-200 file:bg-slate-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-100"
          />
        </div>
        <FormField
          label="Tag"
          name="tag"
          autoComplete="off"
          placeholder="e.g. VIP"
          value={tag}
          disabled={busy}
          onChange={(event) => {
            setTag(event.target.value);
            setMessage(null);
          }}
        />
        <DefaultCountrySelect value={country} onChange={setCountry} disabled={busy} />
        {busy ? (
          <div>
            <div className="mb-1 flex justify-between text-xs text-slate-500">
              <span>{percent < 100 ? 'Uploading...' : 'Processing...'}</span>
              <span>{percent}%</span>
            </div>
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 overflow-hidden rounded-full bg-slate-100"
            >
              <div
                className="h-full rounded-full bg-emerald-700 transition-[width]"
                style={{ width: `${percent}%` }}
              />
            </div>
          </div>
        ) : null}
        {message ? <FormAlert>{message}</FormAlert> : null}
        {rowErrors ? (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 text-sm text-red-700">
            <p className="border-b border-red-200 px-3 py-2 font-medium">
              {rowErrors.summary ?? 'Some rows are invalid; nothing was imported.'}
            </p>
            <ul aria-label="Import errors" className="max-h-48 space-y-1 overflow-y-auto px-3 py-2">
              {rowErrors.rows.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="flex justify-end gap-2 pt-2">
          <button type="button" className={secondaryButtonClass} disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? 'Importing...' : 'Import Contacts'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
