import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { TEST_SEND, phoneNumberCountry } from '@herald/contracts';
import type { BroadcastTestResponse, Contact } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { ModalDialog } from '../../../components/modal-dialog';
import { PhoneInput } from '../../../components/phone-input';
import { fieldErrors } from '../../../lib/field-errors';
import { serverMessage } from '../../../lib/server-message';
import { useSendTestMessageMutation } from '../sending-api';
import { inputClass, labelClass } from './section-card';

type SendTestDialogProps = {
  templateId: number;
  templateName: string;
  /** Meta's id of the chosen 'Send from' number; '' leaves it to the server (the account's first). */
  phoneNumberId: string;
  /** The chosen number as Meta displays it, when known. */
  fromNumber: string | null;
  /** The contacts whose values may fill the template (the first page of the account's contacts). */
  contacts: Contact[];
  onClose: () => void;
};

/** What came back, in plain words: accepted with its wamid, or WhatsApp's refusal and what to do. */
function TestResult({ result }: { result: BroadcastTestResponse }) {
  if (result.accepted) {
    return (
      <div role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        <p className="font-medium">Accepted by WhatsApp: the test is on its way to {result.to}.</p>
        <p className="mt-1 break-all text-emerald-700">Message id: {result.wamid}</p>
      </div>
    );
  }
  const error = result.error!;
  return (
    <div role="status" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
      <p className="font-medium">
        WhatsApp did not accept the test{error.code !== null ? ` (error ${error.code})` : ''}: {error.title}
      </p>
      <p className="mt-1">{error.explanation}</p>
      <p className="mt-1">{error.action}</p>
    </div>
  );
}

/**
 * 'Send test': the chosen template, filled with one contact's values, to one number the user
 * types, from the chosen 'Send from' number. Not a broadcast (the history does not count it), but it is a
 * business-initiated message: it counts in the 24-hour messaging limit.
 */
export function SendTestDialog({
  templateId,
  templateName,
  phoneNumberId,
  fromNumber,
  contacts,
  onClose,
}: SendTestDialogProps) {
  const contactFieldId = useId();
  const [to, setTo] = useState('');
  const [contactId, setContactId] = useState<number | null>(contacts[0]?.id ?? null);
  const [toError, setToError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<BroadcastTestResponse | null>(null);
  const [sendTest, { isLoading }] = useSendTestMessageMutation();
  const contact = contacts.find((c) => c.id === contactId) ?? null;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isLoading) return;
    setResult(null);
    setFailure(null);
    if (to === '') {
      setToError(TEST_SEND.toRequired);
      return;
    }
    setToError(null);
    try {
      const answer = await sendTest({
        template_id: templateId,
        to,
        ...(phoneNumberId ? { phone_number_id: phoneNumberId } : {}),
        ...(contactId !== null ? { contact_id: contactId } : {}),
      }).unwrap();
      setResult(answer);
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields.to) setToError(fields.to);
      else
        setFailure(
          serverMessage(error, ['detail', 'message']) ?? 'The test could not be sent. Please try again.',
        );
    }
  }

  return (
    <ModalDialog
      title="Send a test message"
      description={`Sends ${templateName} to one number${fromNumber ? `, from ${fromNumber}` : ''}. It is not a broadcast and is not counted in the history, but it counts in your 24-hour messaging limit.`}
      onClose={onClose}
      busy={isLoading}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="space-y-4">
        <PhoneInput
          label="Send the test to"
          onChange={setTo}
          defaultCountry={(fromNumber && phoneNumberCountry(fromNumber)) || undefined}
          error={toError}
        />
        {contacts.length > 0 ? (
          <div>
            <label htmlFor={contactFieldId} className={labelClass}>
              Fill the variables with the values of
            </label>
            <select
              id={contactFieldId}
              className={inputClass()}
              value={contactId ?? ''}
              onChange={(event) => setContactId(Number(event.target.value))}
            >
              {contacts.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.recipient_name} ({c.whatsapp_number})
                </option>
              ))}
            </select>
            <p className="mt-1 text-xs text-slate-500">
              {contact && contact.id === contacts[0]?.id
                ? `The first contact, ${contact.recipient_name}, as in the preview.`
                : contact
                  ? `${contact.recipient_name}’s own values.`
                  : ''}
            </p>
          </div>
        ) : (
          <p className="text-sm text-slate-600">{TEST_SEND.noContact}</p>
        )}
        {result ? <TestResult result={result} /> : null}
        {failure ? <FormAlert>{failure}</FormAlert> : null}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButtonClass} disabled={isLoading} onClick={onClose}>
            Done
          </button>
          <button type="submit" className={primaryButtonClass} disabled={isLoading || contacts.length === 0}>
            {isLoading ? 'Sending...' : 'Send test'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
