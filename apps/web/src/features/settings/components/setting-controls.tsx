import { useId } from 'react';
import type { ReactNode } from 'react';

/** A titled block of one settings tab. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

type CheckboxSettingProps = {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** What the option does, or why it cannot do it now; read with the checkbox by screen readers. */
  hint?: ReactNode;
};

export function CheckboxSetting({ label, checked, onChange, disabled, hint }: CheckboxSettingProps) {
  const hintId = useId();
  return (
    <div>
      <label className="flex items-center gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={hint ? hintId : undefined}
          className="h-4 w-4 rounded border-slate-300 accent-emerald-600"
        />
        {label}
      </label>
      {hint ? (
        <div id={hintId} className="mt-1 ml-7 text-xs text-slate-500">
          {hint}
        </div>
      ) : null}
    </div>
  );
}

type SelectSettingProps<T extends string | number> = {
  label: string;
  options: ReadonlyArray<{ label: string; value: T }>;
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
  hint?: ReactNode;
};

export function SelectSetting<T extends string | number>({
  label,
  options,
  value,
  onChange,
  disabled,
  hint,
}: SelectSettingProps<T>) {
  const id = useId();
  return (
    <div className="max-w-sm">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={String(value)}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        // Option values are strings in the DOM: the chosen one is found again by its text form.
        onChange={(event) => {
          const chosen = options.find((option) => String(option.value) === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none disabled:opacity-60"
      >
        {options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type WordListSettingProps = {
  label: string;
  /** The words as typed, comma-separated. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  hint?: ReactNode;
};

/** A list of words typed in one field, separated by commas. */
export function WordListSetting({ label, value, onChange, disabled, hint }: WordListSettingProps) {
  const id = useId();
  return (
    <div className="max-w-xl">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none disabled:opacity-60"
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The words of a comma-separated field: trimmed, empty ones left out. */
export function wordsOf(value: string): string[] {
  return value
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
}
