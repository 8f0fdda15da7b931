import { useId, useMemo } from 'react';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import { phoneNumberCountry } from '@herald/contracts';
import type { PhoneCountry } from '@herald/contracts';

/** When the business number says nothing: the spec's default country of the phone input ('us'). */
const FALLBACK_COUNTRY: PhoneCountry = 'US';

export const DEFAULT_COUNTRY_LABEL = 'Default country';
export const DEFAULT_COUNTRY_HINT = "For numbers written without their country code, such as '0151 12340016'";

/** The business number's country ('+49 30 1234567' → 'DE'), the default for numbers without one. */
export function businessCountry(displayPhoneNumber: unknown): PhoneCountry {
  return (
    (typeof displayPhoneNumber === 'string' && phoneNumberCountry(displayPhoneNumber)) || FALLBACK_COUNTRY
  );
}

/** Every country numbers can be read in, by English name: 'Germany (+49)'. */
function countryOptions(): Array<{ code: PhoneCountry; label: string }> {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  return getCountries()
    .map((code) => ({ code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

/** The country the import reads national numbers ('0151 12340016') in. */
export function DefaultCountrySelect({
  value,
  onChange,
  disabled,
}: {
  value: PhoneCountry;
  onChange: (country: PhoneCountry) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const options = useMemo(countryOptions, []);
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {DEFAULT_COUNTRY_LABEL}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value as PhoneCountry)}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
      >
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.label}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {DEFAULT_COUNTRY_HINT}
      </p>
    </div>
  );
}
