import { useRef } from 'react';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { ModalDialog } from '../../../components/modal-dialog';
import { timeZoneLabel } from '../../../lib/time-zone';
import { formatDateTime } from '../../../lib/date-time';
import { formatCount } from '../format';

type ConfirmSendDialogProps = {
  templateName: string;
  /** The server's estimate of the recipients (what create will count); null while it is still asked. */
  recipients: number | null;
  /**
   * Where they come from when it is not all or tagged contacts: 'from broadcast "Spring Sale" (Not read)', or
   * 'from Segment: VIP buyers (55%)'.
   */
  recipientsNote?: string;
  /** Null: send now. */
  scheduledAt: Date | null;
  /** The follow-up in words ('reminder after 24 hours to those who did not reply'); null or absent for none. */
  followUp?: string | null;
  onConfirm: () => void;
  onClose: () => void;
};

/** 'Now', or the scheduled local time with its zone: 'Nov 26, 2026, 9:00 AM (Europe/London, UTC+00:00)'. */
export function sendingTimeText(scheduledAt: Date | null): string {
  return scheduledAt ? `${formatDateTime(scheduledAt)} (${timeZoneLabel(scheduledAt)})` : 'Now';
}

/**
 * 'Send Broadcast' and 'Schedule Broadcast' ask first, naming the template, the number of
 * recipients the server counts, when it goes and its follow-up. Cancel sends nothing.
 */
export function ConfirmSendDialog({
  templateName,
  recipients,
  recipientsNote,
  scheduledAt,
  followUp,
  onConfirm,
  onClose,
}: ConfirmSendDialogProps) {
  const action = scheduledAt ? 'Schedule Broadcast' : 'Send Broadcast';
  const rows: Array<[string, string]> = [
    ['Template', templateName],
    [
      'Recipients',
      `${recipients === null ? 'Counting…' : formatCount(recipients)}${recipientsNote ? ` ${recipientsNote}` : ''}`,
    ],
    ['Sending time', sendingTimeText(scheduledAt)],
    ...(followUp ? [['Follow-up', followUp] as [string, string]] : []),
  ];
  // Focus starts on Cancel, the safe choice, as in every confirmation; the send button is the primary green
  // (the red of ConfirmDialog is for deletions).
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      title={scheduledAt ? 'Schedule this broadcast?' : 'Send this broadcast now?'}
      description={
        scheduledAt
          ? 'It will be sent at the time below. You can cancel it from the history until then.'
          : 'Messages handed to WhatsApp cannot be called back.'
      }
      onClose={onClose}
      initialFocus={cancel}
      size="sm"
    >
      <dl className="mb-4 divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
        {rows.map(([term, detail]) => (
          <div key={term} className="flex justify-between gap-4 px-3 py-2">
            <dt className="text-slate-500">{term}</dt>
            <dd
              className="text-right font-medium text-slate-900"
              data-testid={`confirm-${term.toLowerCase().replace(' ', '-')}`}
            >
              {detail}
            </dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end gap-2">
        <button ref={cancel} type="button" className={secondaryButtonClass} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={primaryButtonClass} onClick={onConfirm}>
          {action}
        </button>
      </div>
    </ModalDialog>
  );
}
