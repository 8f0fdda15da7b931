import {
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_MESSAGE,
  EMAIL_MESSAGE,
  EMAIL_PATTERN,
  PASSWORD_MESSAGE,
  PASSWORD_MIN_LENGTH,
} from '@herald/contracts';
import { useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import { primaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { errorText } from '../../../lib/error-text';
import { fieldErrors } from '../../../lib/field-errors';
import { useChangeAccountMutation } from '../change-account-api';
import { SettingsSection } from './setting-controls';

export const CURRENT_PASSWORD_REQUIRED = 'Enter your current password to change your email or password.';
export const NOTHING_TO_CHANGE = 'Enter a new email or a new password.';
export const PASSWORDS_DIFFER = 'The two new passwords do not match.';
export const ACCOUNT_SAVED = 'Account Settings saved. Your other sessions have been signed out.';

type Fields = {
  current_password: string;
  email: string;
  new_password: string;
  confirm_password: string;
  email_code: string;
};
type Errors = Partial<Record<keyof Fields, string>>;
type Outcome = { tone: 'success' | 'error'; text: string } | null;

/** One toast for this form: a save replaces the outcome of the one before rather than stacking under it. */
const TOAST_ID = 'account-settings';

const EMPTY: Fields = {
  current_password: '',
  email: '',
  new_password: '',
  confirm_password: '',
  email_code: '',
};
const CODE_PATTERN = new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`);

/** The checks the server makes too (contracts' rules), so most mistakes are named before a request. */
function check(fields: Fields, awaitingCode: boolean): Errors {
  const errors: Errors = {};
  if (!fields.current_password) errors.current_password = CURRENT_PASSWORD_REQUIRED;
  const email = fields.email.trim();
  if (!email && !fields.new_password) errors.email = NOTHING_TO_CHANGE;
  if (email && !EMAIL_PATTERN.test(email)) errors.email = EMAIL_MESSAGE;
  if (fields.new_password && fields.new_password.length < PASSWORD_MIN_LENGTH)
    errors.new_password = PASSWORD_MESSAGE;
  if (fields.new_password && fields.confirm_password !== fields.new_password)
    errors.confirm_password = PASSWORDS_DIFFER;
  if (awaitingCode && fields.email_code.trim() && !CODE_PATTERN.test(fields.email_code.trim()))
    errors.email_code = EMAIL_CODE_MESSAGE;
  return errors;
}

/**
 * Account Settings ('Change Email', 'Change Password'): the signed-in user's e-mail and
 * password, belonging to the user rather than the selected account. The current password is required; on
 * success every other session of the user is signed out by the server, and this one carries on. A new e-mail
 * is mailed a code first (decision 064): the form then asks for it, and the e-mail changes once it is entered.
 */
export function AccountSettingsPanel() {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  /** The new e-mail a code was mailed to, while the form waits for that code. */
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [changeAccount, { isLoading }] = useChangeAccountMutation();

  const field = (name: keyof Fields) => ({
    name,
    value: fields[name],
    error: errors[name] ?? null,
    onChange: (event: { target: { value: string } }) => {
      setFields((current) => ({ ...current, [name]: event.target.value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
      setOutcome(null);
    },
  });

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const awaitingCode = pendingEmail !== null && fields.email.trim().toLowerCase() === pendingEmail;
    const found = check(fields, awaitingCode);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await changeAccount({
        current_password: fields.current_password,
        ...(fields.email.trim() ? { email: fields.email.trim() } : {}),
        ...(fields.new_password ? { new_password: fields.new_password } : {}),
        ...(awaitingCode && fields.email_code.trim() ? { email_code: fields.email_code.trim() } : {}),
      }).unwrap();
      if (answer.pending_email) {
        // Nothing about the e-mail changed yet: keep it in the form and ask for the mailed code.
        setPendingEmail(answer.pending_email);
        setFields({ ...EMPTY, email: answer.pending_email });
        toast.success('Confirmation sent', { id: TOAST_ID });
        setOutcome({ tone: 'success', text: answer.message });
        return;
      }
      setPendingEmail(null);
      setFields(EMPTY);
      toast.success('Account Settings saved', { id: TOAST_ID });
      setOutcome({ tone: 'success', text: `${ACCOUNT_SAVED} You sign in as ${answer.email}.` });
    } catch (error) {
      setErrors(fieldErrors(error) as Errors);
      const text = `Account Settings were not saved: ${errorText(error)}`;
      toast.error(text, { id: TOAST_ID });
      setOutcome({ tone: 'error', text });
    }
  }

  return (
    <form noValidate onSubmit={(event) => void handleSubmit(event)}>
      <SettingsSection title="Account Settings">
        <div className="grid max-w-sm gap-4">
          <FormField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            {...field('current_password')}
          />
          <FormField
            label="Change Email"
            type="email"
            autoComplete="email"
            hint="Your new sign-in email. Leave empty to keep the current one."
            {...field('email')}
          />
          {pendingEmail !== null ? (
            <FormField
              label="Confirmation Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              hint={`The ${EMAIL_CODE_LENGTH}-digit code we sent to ${pendingEmail}. Enter it with your current password.`}
              {...field('email_code')}
            />
          ) : null}
          <FormField
            label="Change Password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters. Leave empty to keep the current one."
            {...field('new_password')}
          />
          <FormField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            {...field('confirm_password')}
          />
        </div>
        <p className="text-sm text-slate-500">
          A new password, or a new email once confirmed, signs you out everywhere else.
        </p>
        <div className="pt-2">
          <button type="submit" className={primaryButtonClass} disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Save'}
          </button>
        </div>
        {outcome ? <FormAlert tone={outcome.tone}>{outcome.text}</FormAlert> : null}
      </SettingsSection>
    </form>
  );
}
