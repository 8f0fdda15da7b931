import type { NewBroadcastForm } from '../use-new-broadcast-form';
import { BoundVariablesNote } from './bound-variables-note';
import { BroadcastPreview } from './broadcast-preview';

type NewBroadcastPreviewPaneProps = {
  preview: NewBroadcastForm['preview'];
  /** Shows or hides the pane on a phone, where the form and the preview take turns. */
  className: string;
};

/** Beside the form: the chosen template as the first recipient would see it, and what fills its variables. */
export function NewBroadcastPreviewPane({ preview, className }: NewBroadcastPreviewPaneProps) {
  return (
    <aside className={`min-w-0 space-y-3 lg:sticky lg:top-20 ${className}`}>
      <h2 className="text-sm font-semibold text-slate-900">Preview</h2>
      <BroadcastPreview
        content={preview.content}
        loading={preview.loading}
        failed={preview.failed}
        contactName={preview.contactName}
        mediaSrc={preview.mediaSrc}
      />
      {preview.variables ? <BoundVariablesNote variables={preview.variables} /> : null}
    </aside>
  );
}
