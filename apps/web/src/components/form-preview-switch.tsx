import { useState } from 'react';

export type FormPane = 'form' | 'preview';

/** The two choices' words; the preview's matches the panel's own 'Preview' heading. */
const PANE_LABELS: Record<FormPane, string> = { form: 'Form', preview: 'Preview' };

/**
 * On a phone a form and its live preview cannot sit side by side, and the preview under a long form
 * sat 3,000 px below it. Below Tailwind's `lg` the page shows one of them and this switch, pinned under the app
 * header, flips between them; from `lg` both columns show and the switch is not drawn. The hidden column stays
 * mounted (only `display` changes), so nothing typed is lost.
 */
export function useFormPreviewPane() {
  const [pane, setPane] = useState<FormPane>('form');
  return {
    pane,
    setPane,
    /** Classes of the form column: hidden on small screens while the preview shows. */
    formClass: pane === 'preview' ? 'max-lg:hidden' : '',
    /** Classes of the preview column: hidden on small screens while the form shows. */
    previewClass: pane === 'form' ? 'max-lg:hidden' : '',
  };
}

export function FormPreviewSwitch({
  pane,
  onChange,
}: {
  pane: FormPane;
  onChange: (pane: FormPane) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Show"
      className="sticky top-16 z-10 -mx-1 flex gap-1 rounded-xl border border-slate-200 bg-white p-1 shadow-xs lg:hidden"
    >
      {(['form', 'preview'] as const).map((choice) => (
        <button
          key={choice}
          type="button"
          aria-pressed={pane === choice}
          onClick={() => {
            onChange(choice);
            // The top of the shown column, not wherever the other one was scrolled to.
            window.scrollTo({ top: 0 });
          }}
          className={`flex-1 rounded-lg px-3 py-2 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 ${
            pane === choice ? 'bg-emerald-700 text-white' : 'text-slate-600 hover:bg-slate-100'
          }`}
        >
          {PANE_LABELS[choice]}
        </button>
      ))}
    </div>
  );
}
