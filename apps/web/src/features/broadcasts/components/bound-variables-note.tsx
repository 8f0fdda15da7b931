import { useId } from 'react';
import { FLATTENED_VARIABLE_NOTE } from '@herald/contracts';
import type { BoundVariable } from '../template-preview-content';

/**
 * Beside the preview: which variables each recipient's own contact columns fill, and how Herald sends those
 * values (WhatsApp refuses a variable with a line break, a tab or a run of spaces).
 */
export function BoundVariablesNote({ variables }: { variables: BoundVariable[] }) {
  const titleId = useId();
  const noteId = useId();
  if (variables.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <h3 id={titleId} className="font-medium text-slate-900">
        Variables from contact columns
      </h3>
      <ul aria-describedby={noteId} className="mt-1.5 space-y-0.5 text-slate-700">
        {variables.map((variable) => (
          <li key={`${variable.part}-${variable.index}`}>
            {variable.part} <code className="text-xs">{`{{${variable.index}}}`}</code> ←{' '}
            <span className="font-medium">{variable.column}</span>
          </li>
        ))}
      </ul>
      <p id={noteId} className="mt-2 text-xs text-slate-500">
        {FLATTENED_VARIABLE_NOTE}
      </p>
    </section>
  );
}
