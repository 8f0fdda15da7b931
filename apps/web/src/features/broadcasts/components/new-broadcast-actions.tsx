import { Link } from 'react-router';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import type { NewBroadcastForm } from '../use-new-broadcast-form';
import { ConfirmSendDialog } from './confirm-send-dialog';
import { SendTestDialog } from './send-test-dialog';

type NewBroadcastActionsProps = {
  form: Pick<NewBroadcastForm, 'state' | 'sending' | 'openTest'>;
};

/** The form's buttons: back to the list, a test message to one number, and send (or schedule). */
export function NewBroadcastActions({ form }: NewBroadcastActionsProps) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Link to="/broadcast" className={secondaryButtonClass}>
        Cancel
      </Link>
      <button type="button" className={secondaryButtonClass} onClick={form.openTest}>
        Send test
      </button>
      <button type="submit" className={primaryButtonClass} disabled={form.sending}>
        {form.sending ? 'Sending...' : form.state.scheduled ? 'Schedule Broadcast' : 'Send Broadcast'}
      </button>
    </div>
  );
}

type NewBroadcastDialogsProps = {
  form: Pick<
    NewBroadcastForm,
    | 'state'
    | 'confirming'
    | 'testing'
    | 'chosenTemplate'
    | 'followUp'
    | 'limit'
    | 'recipientsNote'
    | 'phoneNumberId'
    | 'fromNumber'
    | 'contacts'
    | 'send'
    | 'closeConfirm'
    | 'closeTest'
  >;
};

/**
 * The dialogs the buttons open: the confirmation naming what goes, to how many and when, and the test send.
 * Rendered after the form rather than inside it, so their events never reach it.
 */
export function NewBroadcastDialogs({ form }: NewBroadcastDialogsProps) {
  const { state, chosenTemplate } = form;
  return (
    <>
      {form.confirming ? (
        <ConfirmSendDialog
          templateName={chosenTemplate?.template_name ?? ''}
          recipients={form.limit.estimate?.recipients ?? null}
          recipientsNote={form.recipientsNote ?? undefined}
          followUp={form.followUp.confirmLine}
          scheduledAt={state.scheduled ? state.scheduledAt : null}
          onConfirm={() => void form.send()}
          onClose={form.closeConfirm}
        />
      ) : null}
      {form.testing && chosenTemplate ? (
        <SendTestDialog
          templateId={chosenTemplate.id}
          templateName={chosenTemplate.template_name}
          phoneNumberId={form.phoneNumberId}
          fromNumber={form.fromNumber}
          contacts={form.contacts}
          onClose={form.closeTest}
        />
      ) : null}
    </>
  );
}
