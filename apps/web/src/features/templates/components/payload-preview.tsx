import { useId } from 'react';
import type { TemplatePayload } from '@herald/contracts';

/** The JSON of the exact payload sent as `template_data`. */
export function PayloadPreview({ payload }: { payload: TemplatePayload }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs">
      <h2 id={id} className="mb-2 text-sm font-semibold text-slate-900">
        JSON Preview
      </h2>
      {/* A dark code block in both themes: fixed colours (slate-900, emerald-100), since the dark theme turns the
          palette's slate-900 light (decision 039); its border (the cards' shade) marks its edge on a dark card. */}
      {/* Focusable: a block that scrolls must be scrollable from the keyboard too. */}
      <pre
        tabIndex={0}
        aria-label="Template payload JSON"
        className="max-h-96 overflow-auto rounded-lg border border-slate-200 bg-[oklch(20.8%_0.042_265.755)] p-3 font-mono text-[11px] leading-relaxed break-words whitespace-pre-wrap text-[oklch(95%_0.052_163.051)]"
      >
        {JSON.stringify(payload, null, 2)}
      </pre>
    </section>
  );
}
