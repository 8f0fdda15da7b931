import { useId } from 'react';
import type { ReactNode } from 'react';

type FormSectionProps = {
  title: string;
  description?: string;
  /** Controls at the right of the title (e.g. the body's counter and 'Add Variable'). */
  actions?: ReactNode;
  children: ReactNode;
};

/** One card of the template form; a named region, so each section's controls can be found within it. */
export function FormSection({ title, description, actions, children }: FormSectionProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      <div className="space-y-4">{children}</div>
    </section>
  );
}

/** A field's message under it: red for an error. */
export function FieldMessage({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-xs text-red-600">
      {children}
    </p>
  );
}
