import { useId } from 'react';
import { numberSendability } from '@herald/contracts';
import type { PhoneNumber } from '@herald/contracts';
import { numberDetailText, numberOptionText } from '../send-from';
import { FieldError, inputClass, labelClass } from './section-card';

type SendFromFieldProps = {
  /** The account's numbers; undefined while loading. */
  numbers: PhoneNumber[] | undefined;
  failed: boolean;
  /** The chosen number's id ('' when there is none to choose). */
  value: string;
  onChange: (phoneNumberId: string) => void;
  error?: string;
};

/**
 * 'Send from': the account's numbers, those that cannot send disabled with the reason listed under the select
 * (a disabled option cannot say why by itself), and the chosen one's throughput, limit and any quality warning.
 */
export function SendFromField({ numbers, failed, value, onChange, error }: SendFromFieldProps) {
  const selectId = useId();
  const noteId = useId();
  const chosen = numbers?.find((number) => number.id === value) ?? null;
  const warning = chosen ? numberSendability(chosen).warning : null;
  const blocked = (numbers ?? [])
    .map((number) => ({ number, reason: numberSendability(number).reason }))
    .filter((entry): entry is { number: PhoneNumber; reason: string } => entry.reason !== null);

  return (
    <div>
      <label htmlFor={selectId} className={labelClass}>
        Send from
      </label>
      <select
        id={selectId}
        value={value}
        disabled={!numbers || numbers.length === 0}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={noteId}
        className={`${inputClass(Boolean(error))} truncate disabled:bg-slate-50 disabled:text-slate-500`}
      >
        {numbers === undefined ? (
          <option value="">{failed ? 'Numbers could not be loaded' : 'Loading numbers...'}</option>
        ) : numbers.length === 0 ? (
          <option value="">No numbers in this account</option>
        ) : (
          <>
            {value === '' ? <option value="">Choose a number</option> : null}
            {numbers.map((number) => (
              <option key={number.id} value={number.id} disabled={!numberSendability(number).sendable}>
                {numberOptionText(number)}
              </option>
            ))}
          </>
        )}
      </select>
      <div id={noteId} className="mt-1 space-y-1 text-xs">
        {error ? <FieldError id={`${noteId}-error`}>{error}</FieldError> : null}
        {chosen ? <p className="text-slate-500">{numberDetailText(chosen)}</p> : null}
        {warning ? (
          <p className="rounded-md bg-amber-50 px-2 py-1.5 text-amber-800 ring-1 ring-amber-200 ring-inset">
            {warning}
          </p>
        ) : null}
        {blocked.length > 0 ? (
          <ul aria-label="Numbers that cannot send" className="space-y-0.5 text-slate-600">
            {blocked.map(({ number, reason }) => (
              <li key={number.id} className="break-words">
                <span className="font-medium">{number.display_phone_number}</span>: {reason}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
