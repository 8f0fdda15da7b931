import { useId, useMemo, useState } from 'react';
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';
import phoneMetadata from 'libphonenumber-js/metadata.min.json';
import { ChevronDownIcon } from './icons';

/** A phone number has at most 15 digits, country code included (E.164). */
const PHONE_DIGIT_CAP = 15;

/** The country the phone input starts with. */
const DEFAULT_PHONE_COUNTRY: CountryCode = 'US';

type CountryOption = { code: CountryCode; name: string; callingCode: string };

let countryOptions: CountryOption[] | undefined;

/** Every country libphonenumber-js knows, by English name. Built once, on first use. */
function allCountries(): CountryOption[] {
  if (!countryOptions) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countryOptions = getCountries()
      .map((code) => ({
        code,
        name: names.of(code) ?? code,
        callingCode: getCountryCallingCode(code),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
  return countryOptions;
}

/** The digits of the national number that still fit under the cap for `country`. */
function capDigits(digits: string, country: CountryCode): string {
  return digits.slice(0, PHONE_DIGIT_CAP - getCountryCallingCode(country).length);
}

/** The number in E.164 ('' when no digit was typed). Partial numbers keep their digits as typed. */
function toE164(digits: string, country: CountryCode): string {
  if (!digits) return '';
  return parsePhoneNumberFromString(digits, country)?.number ?? `+${getCountryCallingCode(country)}${digits}`;
}

/**
 * The country to show for a number of `callingCode`: a complete North American (+1) number's own country
 * (Canada and the Caribbean are countries of their own, priced apart); else `preferred` when it shares the code
 * (the user or the business chose it); otherwise the code's main country. So every +44 number shows the United
 * Kingdom, though libphonenumber files some mobile ranges under Guernsey, Jersey or the Isle of Man, which share
 * the UK's numbering plan.
 */
function countryFor(callingCode: string, national: string, preferred: CountryCode): CountryCode | undefined {
  if (callingCode === '1' && national) {
    const parsed = parsePhoneNumberFromString(`+${callingCode}${national}`);
    if (parsed?.isValid() && parsed.country) return parsed.country;
  }
  if (getCountryCallingCode(preferred) === callingCode) return preferred;
  const mains = phoneMetadata.country_calling_codes as Record<string, string[] | undefined>;
  return mains[callingCode]?.[0] as CountryCode | undefined;
}

/** A number that starts with '+': its country (see countryFor) and national digits. */
function readInternational(
  text: string,
  preferred: CountryCode,
): { country: CountryCode; digits: string } | null {
  const typer = new AsYouType();
  typer.input(text);
  const callingCode = typer.getCallingCode();
  if (!callingCode) return null;
  const digits = typer.getNationalNumber();
  const country = countryFor(callingCode, digits, preferred);
  if (!country) return null;
  return { country, digits };
}

/** A complete number in its national form ('020 7946 0958'); a partial one formatted as far as it goes. */
function formatNational(digits: string, country: CountryCode): string {
  if (!digits) return '';
  const parsed = parsePhoneNumberFromString(digits, country);
  return parsed?.isValid() ? parsed.formatNational() : new AsYouType(country).input(digits);
}

function initialState(value: string, fallback: CountryCode): { country: CountryCode; digits: string } {
  const parsed = value ? parsePhoneNumberFromString(value) : undefined;
  const country = parsed && countryFor(parsed.countryCallingCode, parsed.nationalNumber, fallback);
  if (parsed && country) return { country, digits: parsed.nationalNumber };
  return (value && readInternational(value, fallback)) || { country: fallback, digits: '' };
}

type PhoneInputProps = {
  label: string;
  /** The number to start with (E.164); read when the input mounts, like an uncontrolled input. */
  defaultValue?: string;
  /** Called with the number in E.164 on every change, or '' when it is empty. */
  onChange: (e164: string) => void;
  defaultCountry?: CountryCode;
  error?: string | null;
  className?: string;
};

/**
 * A phone number input with a country picker: the national number is formatted for the
 * chosen country as it is typed, digits are capped at 15 with the country code, and a number typed or
 * pasted with '+' picks its country itself.
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
  const [state, setState] = useState(() => initialState(defaultValue, defaultCountry));
  const { country, digits } = state;
  const formatted = useMemo(() => formatNational(digits, country), [country, digits]);
  // A '+' typed key by key has no calling code yet ('+', '+4'): shown as typed until the code is complete,
  // or typing an international number by keyboard (not pasting it) would lose the '+'.
  const [pending, setPending] = useState<string | null>(null);

  function update(next: { country: CountryCode; digits: string }) {
    const capped = { country: next.country, digits: capDigits(next.digits, next.country) };
    setState(capped);
    onChange(toE164(capped.digits, capped.country));
  }

  function handleInput(text: string) {
    if (text.trimStart().startsWith('+')) {
      const international = readInternational(text, country);
      if (international) {
        setPending(null);
        update(international);
        return;
      }
      if (/^\+\d{0,3}$/.test(text.trim())) {
        setPending(text.trim());
        return;
      }
    }
    setPending(null);
    let nextDigits = text.replace(/\D/g, '');
    // Backspace over a formatting character ')' or '-' removes no digit: remove the digit before it, or
    // the formatter would put the character straight back.
    if (nextDigits === digits && text.length < formatted.length) nextDigits = nextDigits.slice(0, -1);
    update({ country, digits: nextDigits });
  }

  const callingCode = getCountryCallingCode(country);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div
        className={`flex rounded-lg border bg-white shadow-xs focus-within:ring-2 ${
          error
            ? 'border-red-400 focus-within:border-red-500 focus-within:ring-red-500/20'
            : 'border-slate-300 focus-within:border-emerald-500 focus-within:ring-emerald-500/20'
        }`}
      >
        {/* The native select keeps keyboard and screen-reader use; the compact box shows the choice. */}
        <div className="relative flex shrink-0 items-center gap-1 border-r border-slate-200 bg-slate-50 pr-2 pl-3 text-sm text-slate-700">
          <span aria-hidden="true" className="font-medium">
            {country}
          </span>
          <span aria-hidden="true" className="text-slate-500">
            +{callingCode}
          </span>
          <ChevronDownIcon aria-hidden="true" width={14} height={14} className="text-slate-500" />
          <select
            aria-label="Country"
            value={country}
            onChange={(event) => update({ country: event.target.value as CountryCode, digits })}
            className="absolute inset-0 cursor-pointer opacity-0"
          >
            {allCountries().map((option) => (
              <option key={option.code} value={option.code}>
                {option.name} +{option.callingCode}
              </option>
            ))}
          </select>
        </div>
        <input
          id={id}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={pending ?? formatted}
          onChange={(event) => handleInput(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="block w-full min-w-0 rounded-r-lg border-0 bg-transparent px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none"
        />
      </div>
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
