import { useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { CountryCode } from 'libphonenumber-js';
import { CONTACT_AGE_RULE, CONTACT_BASE_COLUMNS, CONTACT_TEXT_LIMITS, type Contact } from '@herald/contracts';
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
import { useAppSelector } from '../../../lib/store-hooks';
import { useCreateContactMutation, useGetContactColumnsQuery, useUpdateContactMutation } from '../api';
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

type Errors = { name?: string; number?: string; tags?: string; form?: string } & Record<
  string,
  string | undefined
>;

/** The columns every contact has besides name and number, with their labels and the contact's values. */
const DETAILS = [
  { field: 'email', label: 'Email', value: (c?: Contact) => c?.recipient_email },
  {
    field: 'age',
    label: 'Age',
    value: (c?: Contact) => (c?.recipient_age == null ? '' : String(c.recipient_age)),
  },
  { field: 'gender', label: 'Gender', value: (c?: Contact) => c?.recipient_gender },
  { field: 'address', label: 'Address', value: (c?: Contact) => c?.recipient_address },
  { field: 'post_code', label: 'Post Code', value: (c?: Contact) => c?.recipient_post_code },
] as const;
type DetailField = (typeof DETAILS)[number]['field'];

/** The age as sent: null for none, a number, or undefined when it is no whole number from 0 to 150. */
function ageOf(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d{1,3}$/.test(trimmed) && Number(trimmed) <= 150 ? Number(trimmed) : undefined;
}

/**
 * Contact form: Name and WhatsApp Number, in add mode (POST /recipient/create/) or edit mode
 * (PUT /meta/customer/), with the contact's tags and, under 'More details', every other column: e-mail, age,
 * gender, address, post code and the account's custom columns (an import's extra columns). An empty field is
 * named under it instead of nothing happening; the server's refusals (invalid number, number already taken, an
 * e-mail that is none) are shown under the field they concern.
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
  const [details, setDetails] = useState<Record<DetailField, string>>(
    () =>
      Object.fromEntries(DETAILS.map((d) => [d.field, d.value(contact) ?? ''])) as Record<
        DetailField,
        string
      >,
  );
  const [custom, setCustom] = useState<Record<string, string>>(() => ({ ...contact?.attributes }));
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const columns = useGetContactColumnsQuery(wabaId).data;
  const customColumns = (Array.isArray(columns) ? columns : []).filter(
    (column) => !(CONTACT_BASE_COLUMNS as readonly string[]).includes(column),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [createContact, creating] = useCreateContactMutation();
  const [updateContact, updating] = useUpdateContactMutation();
  const busy = creating.isLoading || updating.isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const customerName = name.trim();
    const age = ageOf(details.age);
    if (!customerName || !number || age === undefined) {
      setErrors({
        ...(customerName ? {} : { name: NAME_REQUIRED }),
        ...(number ? {} : { number: NUMBER_REQUIRED }),
        ...(age === undefined ? { age: CONTACT_AGE_RULE } : {}),
      });
      return;
    }
    // Only what the user changed (every filled field of a new contact): the server keeps what is not sent.
    const original = (field: DetailField) =>
      (DETAILS.find((d) => d.field === field)!.value(contact) ?? '').trim();
    const changed = DETAILS.map((d) => d.field).filter((field) => details[field].trim() !== original(field));
    const changedColumns = customColumns.filter(
      (column) => (custom[column] ?? '').trim() !== (contact?.attributes?.[column] ?? ''),
    );
    const body = {
      customer_name: customerName,
      whatsapp_number: number,
      tags,
      ...Object.fromEntries(
        changed.map((field) => [field, field === 'age' ? age : details[field].trim() || null]),
      ),
      // An emptied custom column is cleared.
      ...(changedColumns.length > 0 && {
        attributes: Object.fromEntries(
          changedColumns.map((column) => [column, custom[column]?.trim() ?? '']),
        ),
      }),
    };
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
      const forFields: Errors = {
        name: byField.customer_name,
        number: byField.whatsapp_number,
        tags: tagError,
        ...Object.fromEntries(DETAILS.map((d) => [d.field, byField[d.field]])),
        ...Object.fromEntries(customColumns.map((column) => [column, byField[`attributes.${column}`]])),
      };
      setErrors(Object.values(forFields).some(Boolean) ? forFields : { form: errorText(failure) });
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
        <details
          className="rounded-lg border border-slate-200 px-3 py-2"
          // Open at once when a detail was refused, so its message is seen.
          open={DETAILS.some((d) => errors[d.field]) || customColumns.some((c) => errors[c]) || undefined}
        >
          <summary className="cursor-pointer text-sm font-medium text-slate-700">More details</summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            {DETAILS.map((detail) => (
              <FormField
                key={detail.field}
                label={detail.label}
                name={detail.field}
                autoComplete="off"
                inputMode={
                  detail.field === 'age' ? 'numeric' : detail.field === 'email' ? 'email' : undefined
                }
                maxLength={detail.field === 'age' ? 3 : CONTACT_TEXT_LIMITS[detail.field]}
                value={details[detail.field]}
                error={errors[detail.field]}
                onChange={(event) => {
                  const value = event.target.value;
                  setDetails((previous) => ({ ...previous, [detail.field]: value }));
                  setErrors(({ [detail.field]: _cleared, ...rest }) => rest);
                }}
              />
            ))}
            {customColumns.map((column) => (
              <FormField
                key={column}
                label={column}
                autoComplete="off"
                value={custom[column] ?? ''}
                error={errors[column]}
                onChange={(event) => {
                  const value = event.target.value;
                  setCustom((previous) => ({ ...previous, [column]: value }));
                  setErrors(({ [column]: _cleared, ...rest }) => rest);
                }}
              />
            ))}
          </div>
        </details>
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
