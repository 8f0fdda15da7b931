import { FormField } from '../../../components/form-field';

export const LINK_DESTINATION_LABEL = 'Link destination';
export const LINK_DESTINATION_HINT =
  'Where the tracked link button leads. Herald records each recipient’s first click.';

/**
 * New broadcast, for a template whose URL button is Herald's tracked link: where that link leads (required).
 * The server sends each recipient's click on to it after recording the first one (decision 091).
 */
export function LinkDestinationField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (linkDestination: string) => void;
  error?: string;
}) {
  return (
    <FormField
      label={LINK_DESTINATION_LABEL}
      type="url"
      inputMode="url"
      autoComplete="url"
      placeholder="https://"
      required
      maxLength={2000}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      hint={LINK_DESTINATION_HINT}
    />
  );
}
