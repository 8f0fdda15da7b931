import { useId } from 'react';
import type { ReactNode } from 'react';

type SectionCardProps = {
  title: string;
  description?: string;
  children: ReactNode;
};

/** One card of the New broadcast screen; a named region, so each section's controls can be found within it. */
export function SectionCard({ title, description, children }: SectionCardProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs">
      <div className="mb-4">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {description ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
      </div>
      <div className="space-y-4">{children}</div>
    </section>
  );
}

/** A field's validation message under it. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-xs text-red-600">
      {children}
    </p>
  );
}

/** The screen's selects and search inputs; red when the field has an error. */
export function inputClass(invalid = false): string {
  return `block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:ring-2 focus:outline-none ${
    invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-500/20'
      : 'border-slate-300 focus:border-emerald-500 focus:ring-emerald-500/20'
  }`;
}

export const labelClass = 'mb-1.5 block text-sm font-medium text-slate-700';
