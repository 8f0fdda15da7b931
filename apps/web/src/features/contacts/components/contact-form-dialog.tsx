import { useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { CountryCode } from 'libphonenumber-js';
import type { Contact } from '@herald/contracts';
import {
  dangerButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { ModalDialog } from '../../../components/modal-dialog';
import { PhoneInput } from '../../../components/phone-input';
import { errorText } from '../../../lib/error-text';
import { fieldErrors } from '../../../lib/field-errors';
import { useCreateContactMutation, useUpdateContactMutation } from '../api';
import { TagChipsInput } from './tag-chips-input';

/** The same words the server answers for the missing field (contracts' CustomerNameSchema and number). */
const NAME_REQUIRED = 'Name is required';
const NUMBER_REQUIRED = 'WhatsApp number is required';

type ContactFormDialogProps = {
  /** The contact to edit; none to add one. */
  contact?: Contact;
  /** The country a number typed without its code belongs to: the business number's, unless changed. */
  defaultCountry?: CountryCode | undefined;
  /** The account's tag names, offered in the Tags field. */
  tagNames: string[];
  /** Edit mode only: 'Delete' beside 'Update Contact' hands over to the delete confirmation. */
  onDelete?: (contact: Contact) => void;
  onClose: () => void;
};

type Errors = { name?: string; number?: string; tags?: string; form?: string };

/**
 * Contact form: Name and WhatsApp Number, in add mode (POST /recipient/create/) or edit mode
 * (PUT /meta/customer/), with the contact's tags. An empty field is named under it instead of
 * nothing happening; the server's refusals (invalid number, number already taken) are shown under the field
 * they concern.
 */
export function ContactFormDialog({
  contact,
  defaultCountry,
  tagNames,
  onDelete,
  onClose,
}: ContactFormDialogProps) {
  const [name, setName] = useState(contact?.recipient_name ?? '');
  const [number, setNumber] = useState(contact?.whatsapp_number ?? '');
  const [tags, setTags] = useState(() => contact?.tags.map((tag) => tag.tag_name) ?? []);
  const [errors, setErrors] = useState<Errors>({});
  const [createContact, creating] = useCreateContactMutation();
  const [updateContact, updating] = useUpdateContactMutation();
  const busy = creating.isLoading || updating.isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const customerName = name.trim();
    if (!customerName || !number) {
      setErrors({
        ...(customerName ? {} : { name: NAME_REQUIRED }),
        ...(number ? {} : { number: NUMBER_REQUIRED }),
      });
      return;
    }
    const body = { customer_name: customerName, whatsapp_number: number, tags };
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
      const tagError = Object.entries(byField).find(([field]) => /^(tags|\d+)$/.test(field))?.[1];
      const forFields = { name: byField.customer_name, number: byField.whatsapp_number, tags: tagError };
      setErrors(
        forFields.name || forFields.number || forFields.tags ? forFields : { form: errorText(failure) },
      );
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
          defaultCountry={defaultCountry}
          error={errors.number}
          onChange={(value) => {
            setNumber(value);
            setErrors(({ number: _cleared, ...rest }) => rest);
          }}
        />
        <TagChipsInput
          value={tags}
          suggestions={tagNames}
          error={errors.tags}
          onChange={(next) => {
            setTags(next);
            setErrors(({ tags: _cleared, ...rest }) => rest);
          }}
        />
        <div className="flex items-center gap-2 pt-2">
          {contact && onDelete ? (
            <button
              type="button"
              className={dangerButtonClass}
              disabled={busy}
              onClick={() => onDelete(contact)}
            >
              Delete
            </button>
          ) : null}
          <span className="flex-1" />
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
