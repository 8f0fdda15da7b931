import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode } from 'react';

type FormFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** A validation message shown under the input (and linked to it). */
  error?: string | null;
  /** A hint shown under the input when there is no error. */
  hint?: ReactNode;
};

/** A labelled text input. */
export function FormField({ label, className = '', error, hint, ...inputProps }: FormFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
        className={`block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:ring-2 focus:outline-none ${
          error
            ? 'border-red-400 focus:border-red-500 focus:ring-red-500/20'
            : 'border-slate-300 focus:border-emerald-500 focus:ring-emerald-500/20'
        }`}
        {...inputProps}
      />
      {/* Always drawn and polite, so an error that appears is read out; the hint is not live. */}
      <div aria-live="polite">
        {error ? (
          <p id={noteId} className="mt-1 text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </div>
      {!error && hint ? (
        <p id={noteId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
