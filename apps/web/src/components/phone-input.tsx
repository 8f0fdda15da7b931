import { useId, useState } from 'react';
import type { ChangeEvent, FocusEventHandler, InputHTMLAttributes, Ref } from 'react';
import PhoneNumberInput from 'react-phone-number-input';
import type { Country } from 'react-phone-number-input';
import { AsYouType, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import phoneMetadata from 'libphonenumber-js/metadata.min.json';
import { ChevronDownIcon } from './icons';

/** A phone number has at most 15 digits, country code included (E.164). */
const PHONE_DIGIT_CAP = 15;

/** The country the phone input starts with. */
const DEFAULT_PHONE_COUNTRY: Country = 'US';

/**
 * The country to show for `e164` (complete or partial): a complete North American (+1) number's own country
 * (Canada and the Caribbean are countries of their own, priced apart); else `preferred` when it shares the code
 * (the user or the business chose it); otherwise the code's main country. So every +44 number shows the United
 * Kingdom, though libphonenumber (and so the library's own pick) files some mobile ranges under Guernsey,
 * Jersey or the Isle of Man, which share the UK's numbering plan.
 */
function countryFor(e164: string, preferred: Country): Country | undefined {
  const typer = new AsYouType();
  typer.input(e164);
  const callingCode = typer.getCallingCode();
  if (!callingCode) return undefined;
  if (callingCode === '1') {
    const parsed = parsePhoneNumberFromString(e164);
    if (parsed?.isValid() && parsed.country) return parsed.country;
  }
  if (getCountryCallingCode(preferred) === callingCode) return preferred;
  const mains = phoneMetadata.country_calling_codes as Record<string, Country[] | undefined>;
  return mains[callingCode]?.[0];
}

type CountrySelectProps = {
  /** The library's country; `shown` (from countryFor) wins when set. */
  value?: Country;
  shown?: Country;
  options: { value?: Country; label: string }[];
  onChange: (country: Country) => void;
  /** Told of a country the user picked, so it becomes the preferred one. */
  onPick: (country: Country) => void;
  onFocus?: FocusEventHandler<HTMLSelectElement>;
  onBlur?: FocusEventHandler<HTMLSelectElement>;
  disabled?: boolean;
};

/**
 * The compact country box ('GB +44 ⌄') over an invisible native select, which keeps keyboard and screen-reader
 * use. No flags: the library's default flags are images from a URL, and the product runs offline.
 */
function CountrySelect({
  value,
  shown,
  options,
  onChange,
  onPick,
  onFocus,
  onBlur,
  disabled,
}: CountrySelectProps) {
  const country = shown ?? value ?? DEFAULT_PHONE_COUNTRY;
  return (
    <div className="relative flex shrink-0 items-center gap-1 rounded-l-lg border-r border-slate-200 bg-slate-50 pr-2 pl-3 text-sm text-slate-700">
      <span aria-hidden="true" className="font-medium">
        {country}
      </span>
      <span aria-hidden="true" className="text-slate-500">
        +{getCountryCallingCode(country)}
      </span>
      <ChevronDownIcon aria-hidden="true" width={14} height={14} className="text-slate-500" />
      <select
        aria-label="Country"
        value={country}
        disabled={disabled}
        onFocus={onFocus}
        onBlur={onBlur}
        onChange={(event) => {
          const picked = event.target.value as Country;
          onPick(picked);
          onChange(picked);
        }}
        className="absolute inset-0 cursor-pointer opacity-0"
      >
        {/* No 'International' option (addInternationalOption={false}): every option is a country. */}
        {options.map(
          ({ value: code, label }) =>
            code && (
              <option key={code} value={code}>
                {label} +{getCountryCallingCode(code)}
              </option>
            ),
        )}
      </select>
    </div>
  );
}

type CappedInputProps = InputHTMLAttributes<HTMLInputElement> & {
  /** The library reads and moves the caret through it. */
  ref?: Ref<HTMLInputElement>;
  nationalCap: number;
};

/**
 * The tel input, dropping digits past E.164's 15 before the library reads the text (the library's own
 * `limitMaxLength` cuts at each country's longest number, which would hide the form's "too long" reason).
 */
function CappedInput({ nationalCap, onChange, ...props }: CappedInputProps) {
  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const cap = input.value.trimStart().startsWith('+') ? PHONE_DIGIT_CAP : nationalCap;
    let seen = 0;
    const capped = input.value.replace(/\d/g, (digit) => (++seen > cap ? '' : digit));
    if (capped !== input.value) input.value = capped;
    onChange?.(event);
  }
  return <input {...props} onChange={handleChange} />;
}

type PhoneInputProps = {
  label: string;
  /** The number to start with (E.164); read when the input mounts, like an uncontrolled input. */
  defaultValue?: string;
  /** Called with the number in E.164 on every change, or '' when it is empty. */
  onChange: (e164: string) => void;
  defaultCountry?: Country;
  error?: string | null;
  className?: string;
};

/**
 * A phone number input with a country picker, built on react-phone-number-input: the national number is
 * formatted for the chosen country as it is typed, a number typed or pasted with '+' picks its country,
 * and digits are capped at 15 with the country code.
 */
export function PhoneInput({
  label,
  defaultValue = '',
  onChange,
  defaultCountry = DEFAULT_PHONE_COUNTRY,
  error,
  className = '',
}: PhoneInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  // The library takes E.164 only: a stored number written another way is read (or dropped) here.
  const [value, setValue] = useState(() => parsePhoneNumberFromString(defaultValue)?.number);
  const [preferred, setPreferred] = useState(defaultCountry);
  const shown = (value && countryFor(value, preferred)) || undefined;

  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <PhoneNumberInput
        id={id}
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next ?? '');
        }}
        defaultCountry={defaultCountry}
        addInternationalOption={false}
        // A stored number opens as '020 7946 0958' under GB, not '+44 20 7946 0958'; picking a country keeps focus
        // on the select, as the native select always did; the input takes '+' numbers too, so plain 'tel'.
        initialValueFormat="national"
        focusInputOnCountrySelection={false}
        autoComplete="tel"
        countrySelectComponent={CountrySelect}
        countrySelectProps={{ shown, onPick: setPreferred }}
        inputComponent={CappedInput}
        numberInputProps={{
          nationalCap: PHONE_DIGIT_CAP - getCountryCallingCode(shown ?? preferred).length,
          inputMode: 'tel',
          className:
            'block w-full min-w-0 rounded-r-lg border-0 bg-transparent px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none',
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`flex rounded-lg border bg-white shadow-xs focus-within:ring-2 ${
          error
            ? 'border-red-400 focus-within:border-red-500 focus-within:ring-red-500/20'
            : 'border-slate-300 focus-within:border-emerald-500 focus-within:ring-emerald-500/20'
        }`}
      />
      {/* Always drawn and polite, so an error that appears is read out. */}
      <div aria-live="polite">
        {error ? (
          <p id={errorId} className="mt-1 text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
