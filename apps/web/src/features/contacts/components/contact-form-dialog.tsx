import { useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { Contact } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { ModalDialog } from '../../../components/modal-dialog';
import { PhoneInput } from '../../../components/phone-input';
import { errorText } from '../../../lib/error-text';
import { useCreateContactMutation, useUpdateContactMutation } from '../api';
import { fieldErrors } from '../../../lib/field-errors';

type ContactFormDialogProps = {
  /** The contact to edit; none to add one. */
  contact?: Contact;
  onClose: () => void;
};

/**
 * Spec §4 contact form: Name and WhatsApp Number, in add mode (POST /recipient/create/) or edit mode
 * (PUT /meta/customer/). Spec §5: with either field empty nothing is sent and nothing shown. The server's
 * refusals (invalid number, number already taken) are shown under the field they concern.
 */
export function ContactFormDialog({ contact, onClose }: ContactFormDialogProps) {
  const [name, setName] = useState(contact?.recipient_name ?? '');
  const [number, setNumber] = useState(contact?.whatsapp_number ?? '');
  const [errors, setErrors] = useState<{ name?: string; number?: string; form?: string }>({});
  const [createContact, creating] = useCreateContactMutation();
  const [updateContact, updating] = useUpdateContactMutation();
  const busy = creating.isLoading || updating.isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const customerName = name.trim();
    if (!customerName || !number || busy) return;
    const body = { customer_name: customerName, whatsapp_number: number };
    try {
      if (contact) {
        await updateContact({ customer_id: contact.id, ...body }).unwrap();
        toast.success('Contact updated');
      } else {
        await createContact(body).unwrap();
        toast.success('Contact added');
      }
      onClose();
    } catch (failure) {
      console.error('Saving the contact failed', failure);
      const byField = fieldErrors(failure);
      const forFields = { name: byField.customer_name, number: byField.whatsapp_number };
      setErrors(forFields.name || forFields.number ? forFields : { form: errorText(failure) });
    }
  }

  return (
    <ModalDialog title={contact ? 'Edit Contact' : 'Add New Contact'} onClose={onClose} busy={busy}>
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="space-y-4">
        {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
        <FormField
          label="Name"
          name="customer_name"
          autoComplete="off"
          value={name}
          error={errors.name}
          onChange={(event) => {
            setName(event.target.value);
            setErrors(({ name: _cleared, ...rest }) => rest);
          }}
        />
        <PhoneInput
          label="WhatsApp Number"
          defaultValue={contact?.whatsapp_number}
          error={errors.number}
          onChange={(value) => {
            setNumber(value);
            setErrors(({ number: _cleared, ...rest }) => rest);
          }}
        />
        <div className="flex justify-end gap-2 pt-2">
          <button type="button" className={secondaryButtonClass} disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? 'Saving...' : contact ? 'Update Contact' : 'Add Contact'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
