import { useId, useState } from 'react';
import { MEDIA_ACCEPT, TEMPLATE_UI_TEXT } from '@herald/contracts';
import { UploadIcon } from '../../../components/icons';
import { FieldMessage } from './form-section';

type MediaUploadProps = {
  /** The spec's hint for the header type ('PNG, JPG, GIF up to 10MB', ...). */
  hint: string;
  file: File | null;
  /** On edit: the template already has stored media, kept unless a new file is chosen. */
  hasStoredMedia: boolean;
  error?: string | undefined;
  onFile: (file: File) => void;
};

/** The media header's upload area (click or drag and drop) showing the chosen file's name. */
export function MediaUpload({ hint, file, hasStoredMedia, error, onFile }: MediaUploadProps) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  return (
    <div>
      <label
        htmlFor={id}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          const dropped = event.dataTransfer.files[0];
          if (dropped) onFile(dropped);
        }}
        className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed px-4 py-6 text-center transition focus-within:ring-2 focus-within:ring-emerald-500/30 ${
          dragging
            ? 'border-emerald-500 bg-emerald-50'
            : error
              ? 'border-red-300 bg-red-50/40'
              : 'border-slate-300 bg-slate-50 hover:bg-slate-100'
        }`}
      >
        <UploadIcon width={24} height={24} className="text-slate-500" />
        <span className="text-sm font-medium text-emerald-700">{TEMPLATE_UI_TEXT.uploadArea}</span>
        <span id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </span>
        {file ? (
          <span className="mt-1 text-sm font-medium break-all text-slate-800" data-testid="chosen-file">
            {file.name}
          </span>
        ) : hasStoredMedia ? (
          <span className="mt-1 text-xs text-slate-600">
            The current file is kept unless you choose another.
          </span>
        ) : null}
        <input
          id={id}
          type="file"
          accept={MEDIA_ACCEPT}
          aria-label={TEMPLATE_UI_TEXT.uploadArea}
          aria-describedby={`${id}-hint`}
          className="sr-only"
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            if (chosen) onFile(chosen);
            // Choosing the same file again after a type switch should still report it.
            event.target.value = '';
          }}
        />
      </label>
      {error ? <FieldMessage>{error}</FieldMessage> : null}
    </div>
  );
}
