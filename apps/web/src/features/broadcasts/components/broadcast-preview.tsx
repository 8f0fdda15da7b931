import { TEMPLATE_UI_TEXT } from '@herald/contracts';
import { PhoneFrame, PreviewButton } from '../../../components/phone-frame';
import { useSelectedSenderName } from '../../../lib/account-settings-api';
import type { PreviewContent } from '../template-preview-content';

type BroadcastPreviewProps = {
  /** The chosen template filled for the first recipient; null when none is chosen. */
  content: PreviewContent | null;
  loading: boolean;
  failed: boolean;
  /** Whose values fill the dynamic variables, or null when the account has no contact yet. */
  contactName: string | null;
  /** The template's stored header image or video (an object URL), once loaded. */
  mediaSrc?: string | null;
};

const MEDIA_LABELS: Record<string, string> = {
  image: 'Image',
  video: 'Video',
  document: 'Document',
  location: 'Location',
};

/** New broadcast: the phone-style preview of the chosen template (the business's name, and '8:00 AM'). */
export function BroadcastPreview({ content, loading, failed, contactName, mediaSrc }: BroadcastPreviewProps) {
  const sender = useSelectedSenderName();
  return (
    <PhoneFrame
      label="Message preview"
      sender={sender}
      caption={
        contactName
          ? `Dynamic values shown for the first contact, ${contactName}.`
          : 'Dynamic values shown with sample data.'
      }
    >
      {content ? (
        <>
          <div className="max-w-[95%] rounded-lg rounded-tl-none bg-white p-2 text-sm text-slate-900 shadow-sm">
            {content.headerFormat === 'text' && content.headerText ? (
              <p className="mb-1 font-semibold break-words" data-testid="preview-header">
                {content.headerText}
              </p>
            ) : null}
            {/* The template's own image or video, as the templates' preview shows it. */}
            {content.headerFormat === 'image' && mediaSrc ? (
              <img src={mediaSrc} alt="Header image" className="mb-2 w-full rounded-md object-cover" />
            ) : null}
            {content.headerFormat === 'video' && mediaSrc ? (
              <video
                src={mediaSrc}
                aria-label="Header video"
                controls
                muted
                className="mb-2 w-full rounded-md"
              />
            ) : null}
            {content.headerFormat &&
            content.headerFormat !== 'text' &&
            !(mediaSrc && (content.headerFormat === 'image' || content.headerFormat === 'video')) ? (
              <div className="mb-2 flex h-28 items-center justify-center rounded-md bg-slate-100 text-xs text-slate-500">
                {MEDIA_LABELS[content.headerFormat] ?? content.headerFormat}
              </div>
            ) : null}
            <p className="break-words whitespace-pre-wrap" data-testid="preview-body">
              {content.body}
            </p>
            {content.footer ? (
              <p className="mt-1 text-xs break-words text-slate-500">{content.footer}</p>
            ) : null}
            <p className="mt-1 text-right text-[11px] text-slate-500">{TEMPLATE_UI_TEXT.previewTime}</p>
          </div>
          {content.buttons.length > 0 ? (
            <div className="mt-1 max-w-[95%] space-y-1">
              {content.buttons.map((button, i) => (
                <PreviewButton key={i}>{button.text}</PreviewButton>
              ))}
            </div>
          ) : null}
        </>
      ) : (
        <p className="mt-24 px-4 text-center text-sm text-slate-600">
          {loading
            ? 'Loading preview...'
            : failed
              ? 'The template could not be loaded for the preview.'
              : 'Select a template to preview the message.'}
        </p>
      )}
    </PhoneFrame>
  );
}
