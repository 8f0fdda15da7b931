import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

const controlClass = (error: string | undefined) =>
  `block w-full rounded-lg border bg-white px-3 py-1.5 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:ring-2 focus:outline-none ${
    error
      ? 'border-red-400 focus:border-red-500 focus:ring-red-500/20'
      : 'border-slate-300 focus:border-emerald-500 focus:ring-emerald-500/20'
  }`;

export const labelClass = 'mb-1 block text-xs font-medium text-slate-600';

/** A message under a control, linked to it by `id`; the live region reads out one that appears. */
export function ErrorNote({ id, error }: { id: string; error: string | undefined }) {
  return (
    <div aria-live="polite">
      {error ? (
        <p id={id} className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What a labelled control's element takes from its label and message. */
type ControlAttributes = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  className: string;
};

/** A compact label, control and message: the control gets its id, error attributes and look from here. */
function Labelled({
  label,
  error,
  className,
  control,
}: {
  label: string;
  error: string | undefined;
  className: string;
  control: (attributes: ControlAttributes) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {control({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? `${id}-error` : undefined,
        className: controlClass(error),
      })}
      <ErrorNote id={`${id}-error`} error={error} />
    </div>
  );
}

type SelectControlProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'> & {
  label: string;
  error?: string;
  className?: string;
  children: ReactNode;
};

/** A labelled select of the builder, compact enough to sit several in a rule's row. */
export function SelectControl({ label, error, className = '', children, ...props }: SelectControlProps) {
  return (
    <Labelled
      label={label}
      error={error}
      className={className}
      control={(attributes) => (
        <select {...attributes} className={`${attributes.className} pr-8`} {...props}>
          {children}
        </select>
      )}
    />
  );
}

type InputControlProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> & {
  label: string;
  error?: string;
  className?: string;
};

/** A labelled input of the builder (text, number or date). */
export function InputControl({ label, error, className = '', ...props }: InputControlProps) {
  return (
    <Labelled
      label={label}
      error={error}
      className={className}
      control={(attributes) => <input {...attributes} {...props} />}
    />
  );
}

type CheckboxListProps<T extends string | number> = {
  legend: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  selected: readonly T[];
  onChange: (selected: T[]) => void;
  /** Shown instead of the boxes when there is nothing to choose. */
  emptyText: string;
  error?: string;
  className?: string;
};

/** Several choices at once (tags, markets), in a box that scrolls when the account has many. */
export function CheckboxList<T extends string | number>({
  legend,
  options,
  selected,
  onChange,
  emptyText,
  error,
  className = '',
}: CheckboxListProps<T>) {
  const id = useId();
  return (
    <fieldset
      className={className}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className={labelClass}>{legend}</legend>
      {options.length ? (
        <div
          className={`max-h-40 overflow-y-auto rounded-lg border bg-white px-3 py-2 ${
            error ? 'border-red-400' : 'border-slate-300'
          }`}
        >
          <ul className="flex flex-wrap gap-x-4 gap-y-1.5">
            {options.map((option) => (
              <li key={option.value}>
                <label className="inline-flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    checked={selected.includes(option.value)}
                    onChange={(event) =>
                      onChange(
                        event.target.checked
                          ? [...selected, option.value]
                          : selected.filter((value) => value !== option.value),
                      )
                    }
                    className="h-4 w-4 rounded border-slate-300 text-emerald-700 focus:ring-emerald-500"
                  />
                  {option.label}
                </label>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm text-slate-500">{emptyText}</p>
      )}
      <ErrorNote id={`${id}-error`} error={error} />
    </fieldset>
  );
}
