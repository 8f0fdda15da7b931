import type { InboundKind, RecipientReply } from '@herald/contracts';
import { formatDateTime } from '../../../lib/date-time';

/** How a reply without text (or a press, a reaction) is named in the report. */
export const REPLY_KIND_LABELS: Record<InboundKind, string> = {
  text: 'Message',
  button: 'Button press',
  interactive: 'Button press',
  image: 'Image',
  video: 'Video',
  document: 'Document',
  audio: 'Voice or audio',
  sticker: 'Sticker',
  location: 'Location',
  contacts: 'Contact card',
  reaction: 'Reaction',
  other: 'Other message',
};

/**
 * The report's Replied cell: the recipient's first reply with its text (a caption, the button's
 * text, the emoji) or, without text, its kind; and when they sent it. '—' when they did not reply.
 */
export function ReplyCell({ reply }: { reply: RecipientReply | null }) {
  if (!reply) return <span className="text-slate-500">—</span>;
  const kind = REPLY_KIND_LABELS[reply.kind];
  return (
    <span className="block">
      <span className="block text-slate-800">
        {reply.text !== null ? (
          <>
            {reply.kind !== 'text' ? <span className="text-slate-500">{kind}: </span> : null}
            <span className="break-words">“{reply.text}”</span>
          </>
        ) : (
          <span className="italic">{kind}</span>
        )}
      </span>
      <time dateTime={reply.at} className="block text-xs text-slate-500">
        {formatDateTime(reply.at)}
      </time>
    </span>
  );
}
