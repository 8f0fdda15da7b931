import { useRef, useState, type FormEvent } from 'react';
import { parseSpendCap, type BroadcastRow } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { ModalDialog } from '../../../components/modal-dialog';
import { formatUsd } from '../cost-api';

/**
 * Resume for a broadcast its spend cap paused (decision 052): resuming as it is would only pause it again, so
 * the user raises the cap or removes it here. The server says how high it must be at least (the cost so far
 * plus the next message); its refusal is shown in the dialog.
 */
export function RaiseSpendCapDialog({
  row,
  busy,
  failure,
  onResume,
  onClose,
}: {
  row: BroadcastRow;
  busy: boolean;
  failure: string | null;
  /** The new cap, or null to remove it. */
  onResume: (spendCap: number | null) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The field is first in the dialog, so it has the focus on open; after a refusal it gets it again.
  const fields = useRef<HTMLDivElement>(null);
  const current = row.spend_cap ?? null;

  function raise(event: FormEvent) {
    event.preventDefault();
    const parsed = parseSpendCap(text);
    if (!parsed.ok || parsed.value === null) {
      setError(parsed.ok ? 'Enter the new spend cap, or remove the cap' : parsed.message);
      fields.current?.querySelector('input')?.focus();
      return;
    }
    setError(null);
    onResume(parsed.value);
  }

  return (
    <ModalDialog
      title="Raise the spend cap"
      description={`${row.name} paused at its spend cap${
        current === null ? '' : ` of ${formatUsd(current)}`
      }. Raise the cap or remove it to resume sending.`}
      onClose={onClose}
      busy={busy}
      size="sm"
    >
      <form noValidate onSubmit={raise} className="space-y-4">
        <div ref={fields}>
          <FormField
            label="New spend cap (USD)"
            inputMode="decimal"
            value={text}
            onChange={(event) => setText(event.target.value)}
            error={error}
          />
        </div>
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={secondaryButtonClass} disabled={busy} onClick={onClose}>
            Keep Paused
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={busy}
            onClick={() => onResume(null)}
          >
            Remove Cap and Resume
          </button>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? 'Resuming...' : 'Raise and Resume'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
