import { TEMPLATE_UI_TEXT, previewSampleValue, renderPreviewText } from '@herald/contracts';
import { PhoneFrame, PreviewButton } from '../../../components/phone-frame';
import { useSelectedSenderName } from '../../../lib/account-settings-api';
import type { TemplateFormState } from '../template-form-state';
import { dynamicExample } from '../template-payload';
import { BUTTON_TYPE_LABELS } from './buttons-section';

type TemplatePreviewProps = {
  state: TemplateFormState;
  /** An object URL of the chosen file, else of the stored media (edit); null when there is none. */
  mediaSrc: string | null;
};

/** The preview value of each body variable: the typed value, or the chosen column's example. */
function bodyValues(state: TemplateFormState): Record<number, string> {
  const values: Record<number, string> = {};
  state.bodyParams.forEach((param, i) => {
    values[i + 1] = param.isDynamic ? dynamicExample(param) : param.text;
  });
  return values;
}

function headerValue(state: TemplateFormState): string {
  if (!state.isDynamicHeader) return state.headerValue;
  return state.headerColumn ? previewSampleValue(state.headerColumn) : '';
}

/** The phone-style live preview (the business's display name at the top, and '8:00 AM'). */
export function TemplatePreview({ state, mediaSrc }: TemplatePreviewProps) {
  const sender = useSelectedSenderName();
  const body = renderPreviewText(state.bodyText, bodyValues(state));
  const content = state.headerContent;
  const documentName = content.filename || content.file?.name || 'Document';
  return (
    <PhoneFrame label="Template preview" sender={sender}>
      <div className="max-w-[95%] rounded-lg rounded-tl-none bg-white p-2 text-sm text-slate-900 shadow-sm">
        {state.headerType === 'text' && state.headerText ? (
          <p className="mb-1 font-semibold break-words">
            {renderPreviewText(state.headerText, { 1: headerValue(state) })}
          </p>
        ) : null}
        {state.headerType === 'image' ? (
          mediaSrc ? (
            <img src={mediaSrc} alt="Header image preview" className="mb-2 w-full rounded-md object-cover" />
          ) : (
            <MediaPlaceholder label="Image" />
          )
        ) : null}
        {state.headerType === 'video' ? (
          mediaSrc ? (
            <video
              src={mediaSrc}
              controls
              aria-label="Header video preview"
              className="mb-2 w-full rounded-md bg-black"
            />
          ) : (
            <MediaPlaceholder label="Video" />
          )
        ) : null}
        {state.headerType === 'document' ? (
          <div className="mb-2 flex items-center gap-2 rounded-md bg-slate-100 p-2">
            <DocumentIcon />
            <span className="truncate text-xs font-medium" data-testid="preview-document-name">
              {documentName}
            </span>
          </div>
        ) : null}
        {state.headerType === 'location' ? (
          <div className="mb-2 overflow-hidden rounded-md bg-slate-100">
            <div aria-hidden="true" className="flex h-24 items-center justify-center bg-emerald-50 text-2xl">
              📍
            </div>
            <div className="p-2 text-xs">
              <p className="font-semibold">{content.locationName || 'Location Name'}</p>
              <p className="text-slate-500">{content.address || 'Address'}</p>
            </div>
          </div>
        ) : null}
        <p className="break-words whitespace-pre-wrap" data-testid="preview-body">
          {body || <span className="text-slate-500">Your message body appears here.</span>}
        </p>
        {state.footerText ? (
          <p className="mt-1 text-xs break-words text-slate-500" data-testid="preview-footer">
            {state.footerText}
          </p>
        ) : null}
        <p className="mt-1 text-right text-[11px] text-slate-500">{TEMPLATE_UI_TEXT.previewTime}</p>
      </div>
      {state.buttons.length > 0 ? (
        <div className="mt-1 max-w-[95%] space-y-1">
          {state.buttons.map((button) => (
            <PreviewButton key={button.key}>
              {button.text || BUTTON_TYPE_LABELS[button.sub_type]}
            </PreviewButton>
          ))}
        </div>
      ) : null}
    </PhoneFrame>
  );
}

function MediaPlaceholder({ label }: { label: string }) {
  return (
    <div className="mb-2 flex h-32 items-center justify-center rounded-md bg-slate-100 text-xs text-slate-500">
      {label}
    </div>
  );
}

function DocumentIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="28"
      height="28"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="shrink-0 text-red-500"
    >
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h4" />
    </svg>
  );
}
