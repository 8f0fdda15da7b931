import type { BroadcastRow } from '@herald/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** Asks before cancelling: messages already handed to WhatsApp cannot be recalled, the rest are dropped. */
export function CancelBroadcastDialog({
  row,
  busy,
  failure,
  onConfirm,
  onClose,
}: {
  row: BroadcastRow;
  busy: boolean;
  failure: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      title="Cancel Broadcast"
      description={`Cancel ${row.name}? Messages not yet sent will not be sent. Messages already sent stay sent.`}
      busy={busy}
      failure={failure}
      onConfirm={onConfirm}
      onClose={onClose}
      confirmLabel="Cancel Broadcast"
      busyLabel="Cancelling..."
      dismissLabel="Keep It"
    />
  );
}
