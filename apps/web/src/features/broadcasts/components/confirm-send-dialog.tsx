import { ConfirmDialog } from '../../../components/confirm-dialog';
import { timeZoneLabel } from '../../../lib/time-zone';
import { formatCount, formatDateTime } from '../format';

type ConfirmSendDialogProps = {
  templateName: string;
  /** The server's estimate of the recipients (what create will count); null while it is still asked. */
  recipients: number | null;
  /** Where they come from when it is not all or tagged contacts: 'from broadcast "Spring Sale" (Not read)'. */
  recipientsNote?: string;
  /** Null: send now. */
  scheduledAt: Date | null;
  onConfirm: () => void;
  onClose: () => void;
};

/** 'Now', or the scheduled local time with its zone: 'Nov 26, 2026, 9:00 AM (Europe/London, UTC+00:00)'. */
export function sendingTimeText(scheduledAt: Date | null): string {
  return scheduledAt ? `${formatDateTime(scheduledAt)} (${timeZoneLabel(scheduledAt)})` : 'Now';
}

/**
 * Issue 17 item 4: 'Send Broadcast' and 'Schedule Broadcast' ask first, naming the template, the number of
 * recipients the server counts and when it goes. Cancel sends nothing.
 */
export function ConfirmSendDialog({
  templateName,
  recipients,
  recipientsNote,
  scheduledAt,
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
  ];
  return (
    <ConfirmDialog
      title={scheduledAt ? 'Schedule this broadcast?' : 'Send this broadcast now?'}
      description={
        scheduledAt
          ? 'It will be sent at the time below. You can cancel it from the history until then.'
          : 'Messages handed to WhatsApp cannot be called back.'
      }
      busy={false}
      failure={null}
      confirmLabel={action}
      onConfirm={onConfirm}
      onClose={onClose}
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
    </ConfirmDialog>
  );
}
