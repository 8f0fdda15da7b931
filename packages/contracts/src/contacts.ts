import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';
import phoneMetadata from 'libphonenumber-js/metadata.min.json';
import { z } from 'zod';
import { EMAIL_PATTERN } from './auth';
import { PageNumberSchema } from './paging';

/** The contact list's page sizes. */
export const CONTACT_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_CONTACT_PAGE_SIZE = 10;

/** The import dialog's messages, checked again by the server. */
export const IMPORT_MESSAGES = {
  notCsv: 'Please upload a CSV file',
  noFile: 'Please select a CSV file',
  noTag: 'Please enter a tag',
  fallback: 'Error importing contacts',
} as const;

export const PHONE_NUMBER_MESSAGE = 'Enter a valid WhatsApp number with its country code, e.g. +14155550123';
/** A number starting with 0 and no country to read it in. */
export const NATIONAL_NUMBER_MESSAGE =
  'A number starting with 0 needs its country: write it with its country code, e.g. +44 20 7946 0958';
export const TOO_MANY_DIGITS_MESSAGE = 'The number is too long: a phone number has at most 15 digits';

/** The columns every contact has, as GET /recipient/cols names them (template variables). */
export const CONTACT_BASE_COLUMNS = [
  'name',
  'whatsapp_number',
  'age',
  'gender',
  'address',
  'post_code',
  'email',
] as const;

/** The longest text each contact column keeps, shared by the form, the import and the server. */
export const CONTACT_TEXT_LIMITS = {
  name: 200,
  gender: 50,
  address: 500,
  post_code: 50,
  email: 254,
} as const;
/** A custom column (a CSV's extra column): its longest value, and how many a contact may have. */
export const CONTACT_EXTRA_LIMITS = { length: 1_000, columns: 50 } as const;
export const CONTACT_AGE_RULE = 'age must be a whole number from 0 to 150';

/** "United Kingdom" for GB; the code itself where the runtime has no region names. */
function countryName(code: CountryCode): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The country a calling code names first ('44' → GB), as libphonenumber's metadata orders them. */
function mainCountry(callingCode: string): CountryCode | undefined {
  const mains = phoneMetadata.country_calling_codes as Record<string, string[] | undefined>;
  return mains[callingCode]?.[0] as CountryCode | undefined;
}

/**
 * Why a number with its country code ('+447911' …) or in `country`'s national form is no WhatsApp number, in plain
 * words: too short or too long for its country, no such country code, or not a number that country uses.
 */
function phoneProblem(text: string, country?: CountryCode): string {
  const length = country
    ? validatePhoneNumberLength(text, { defaultCountry: country })
    : validatePhoneNumberLength(text);
  if (length === 'INVALID_COUNTRY' || length === 'NOT_A_NUMBER') {
    const code = /^\+(\d{1,3})/.exec(text)?.[1];
    return code && !country ? `No country uses the calling code +${code}` : PHONE_NUMBER_MESSAGE;
  }
  const parsed = parsePhoneNumberFromString(text, country ? { defaultCountry: country } : {});
  const callingCode = parsed?.countryCallingCode ?? (country ? getCountryCallingCode(country) : undefined);
  const where = parsed?.country ?? country ?? (callingCode ? mainCountry(callingCode) : undefined);
  const kind = where ? ` for a ${countryName(where)} number (+${getCountryCallingCode(where)})` : '';
  if (length === 'TOO_SHORT') return `The number is too short${kind}`;
  if (length === 'TOO_LONG') return `The number is too long${kind}`;
  if (length === 'INVALID_LENGTH') return `The number has the wrong number of digits${kind}`;
  return where
    ? `This is not a valid ${countryName(where)} number (+${getCountryCallingCode(where)})`
    : PHONE_NUMBER_MESSAGE;
}

export type PhoneNumberResult = { ok: true; e164: string } | { ok: false; message: string };

/**
 * The one rule for a WhatsApp number (numbers include the country code), shared by the contact
 * form, the CSV import and the server. Accepted: '+14155550123', '14155550123' (digits are read as starting
 * with the country code, as the phone input sends them), '0014155550123' (the international 00 prefix), with
 * spaces, dots, dashes or brackets anywhere. A national number ('(415) 555-0123', '020 7946 0958') is
 * refused unless a default country is given: without one it is ambiguous. With a default country, a number
 * with one leading 0 ('0151 12340016') is read as that country's, and digits that are no valid number read
 * as starting with a country code are tried as that country's too. Answers the number in E.164.
 */
export function normalizePhoneNumber(input: string, defaultCountry?: CountryCode): PhoneNumberResult {
  const compact = input.replace(/[\s().\-\u00a0]/g, '');
  if (defaultCountry && /^0[1-9]\d*$/.test(compact)) return nationalNumber(compact, defaultCountry);
  let international: string;
  if (/^\+\d+$/.test(compact)) international = compact;
  else if (/^00\d+$/.test(compact)) international = `+${compact.slice(2)}`;
  else if (/^[1-9]\d*$/.test(compact)) international = `+${compact}`;
  else if (/^0[1-9]\d*$/.test(compact)) return { ok: false, message: NATIONAL_NUMBER_MESSAGE };
  else return { ok: false, message: PHONE_NUMBER_MESSAGE };
  // E.164 allows at most 15 digits; refusing longer strings early also bounds the parser's work.
  const parsed =
    international.length > 16 || international.length < 8
      ? undefined
      : parsePhoneNumberFromString(international, { extract: false });
  if (parsed?.isValid()) return { ok: true, e164: parsed.number };
  if (defaultCountry && /^[1-9]\d*$/.test(compact)) return nationalNumber(compact, defaultCountry);
  if (international.length > 16) return { ok: false, message: TOO_MANY_DIGITS_MESSAGE };
  return { ok: false, message: phoneProblem(international) };
}

/** Digits read as a number of `country` ('0151 12340016' in DE); bounded like an international one. */
function nationalNumber(digits: string, country: CountryCode): PhoneNumberResult {
  if (digits.length > 17) return { ok: false, message: TOO_MANY_DIGITS_MESSAGE };
  const parsed = parsePhoneNumberFromString(digits, { defaultCountry: country, extract: false });
  if (!parsed?.isValid()) return { ok: false, message: phoneProblem(digits, country) };
  return { ok: true, e164: parsed.number };
}

export const DEFAULT_COUNTRY_MESSAGE = 'default_country must be a two-letter country code, e.g. DE';

/** Whether `code` is a country libphonenumber knows, in upper case ('DE', 'GB'): a usable default country. */
export function isPhoneCountry(code: string): code is CountryCode {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

/**
 * The country of a number as shown ('+49 151 12340016' → 'DE'): its own country when libphonenumber knows
 * it, else the main country of its calling code ('+1 555 0100', a sandbox number, → 'US'); null when the
 * text is no international number. Gives the business number's country, the default for national numbers.
 */
export function phoneNumberCountry(text: string): CountryCode | null {
  const parsed = parsePhoneNumberFromString(text.trim(), { extract: false });
  if (!parsed) return null;
  if (parsed.country) return parsed.country;
  const [main] = phoneMetadata.country_calling_codes[parsed.countryCallingCode] ?? [];
  return main ?? null;
}

/** A country numbers can be read in ('DE'), for modules that do not depend on libphonenumber-js. */
export type PhoneCountry = CountryCode;

/** The import's `default_country` multipart field: an ISO country code, any case. */
export const DefaultCountrySchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isPhoneCountry, DEFAULT_COUNTRY_MESSAGE)
  .transform((code) => code as CountryCode);

const IdSchema = z.number().int().positive();

export const ContactTagSchema = z.object({ id: IdSchema, tag_name: z.string() });

/** Contact / recipient. */
export const ContactSchema = z
  .object({
    id: IdSchema,
    recipient_name: z.string(),
    whatsapp_number: z.string(),
    recipient_age: z.number().int().nullable(),
    recipient_gender: z.string().nullable(),
    recipient_address: z.string().nullable(),
    recipient_post_code: z.string().nullable(),
    recipient_email: z.string().nullable(),
    tags: z.array(ContactTagSchema),
    /** When the contact opted out (replied STOP, or Meta answered 131050); broadcasts leave them out. */
    opted_out_at: z.string().nullable().optional(),
    /**
     * The customer's business-scoped user id (BSUID) when a webhook brought it; a customer who hides their number
     * has it as `whatsapp_number` too, and is sent to by it (decision 050).
     */
    bsuid: z.string().nullable().optional(),
    /** The WhatsApp username the customer shows instead of their number, when a webhook brought it. */
    username: z.string().nullable().optional(),
    /** The contact's custom columns (an import's extra columns) that have a value. */
    attributes: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Contact' });

export const ContactListQuerySchema = z.object({
  page: PageNumberSchema,
  page_size: z.coerce
    .number({ message: 'must be one of 10, 25, 50, 100' })
    .refine(
      (size) => (CONTACT_PAGE_SIZES as readonly number[]).includes(size),
      'must be one of 10, 25, 50, 100',
    )
    .default(DEFAULT_CONTACT_PAGE_SIZE),
  search: z.string().max(200, 'must be at most 200 characters').optional(),
});

/** Paged list response, with absolute next/previous URLs (null at either end). */
export const ContactListResponseSchema = z
  .object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(ContactSchema),
  })
  .meta({ id: 'ContactList' });

const CustomerNameSchema = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(200, 'Name must be at most 200 characters');
const WhatsappNumberSchema = z
  .string({ message: 'WhatsApp number is required' })
  .trim()
  .min(1, 'WhatsApp number is required')
  .max(40, PHONE_NUMBER_MESSAGE);

/** A tag name's longest, and how many tags one contact may carry (the form, the bulk bar and an import). */
export const TAG_LIMITS = { length: 100, perContact: 50 } as const;

/** A tag's name as the contact form, the bulk bar and the rename dialog send it. */
export const TagNameSchema = z
  .string({ message: 'Tag name is required' })
  .trim()
  .min(1, 'Tag name is required')
  .max(TAG_LIMITS.length, `Tag name must be at most ${TAG_LIMITS.length} characters`);

/** An optional text column: absent keeps it, empty or null clears it. */
const detailText = (column: keyof typeof CONTACT_TEXT_LIMITS) =>
  z
    .string({ message: `${column} must be text` })
    .trim()
    .max(CONTACT_TEXT_LIMITS[column], `${column} must be at most ${CONTACT_TEXT_LIMITS[column]} characters`)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

/**
 * The contact's other columns, each optional (absent keeps it; empty or null clears it), checked by the rules an
 * import applies: age 0 to 150, an e-mail address, the same lengths. `attributes` sets custom columns by name
 * (an import's extra columns; an empty value clears one); the others are kept.
 */
const ContactDetails = {
  age: z
    .union(
      [
        z
          .number({ message: CONTACT_AGE_RULE })
          .int(CONTACT_AGE_RULE)
          .min(0, CONTACT_AGE_RULE)
          .max(150, CONTACT_AGE_RULE),
        z.null(),
      ],
      {
        message: CONTACT_AGE_RULE,
      },
    )
    .optional(),
  gender: detailText('gender'),
  address: detailText('address'),
  post_code: detailText('post_code'),
  email: detailText('email')
    .transform((value) => (typeof value === 'string' ? value.toLowerCase() : value))
    .refine((value) => value == null || EMAIL_PATTERN.test(value), 'email is not a valid e-mail address'),
  attributes: z
    .record(
      z.string(),
      z
        .string({ message: 'must be text' })
        .trim()
        .max(CONTACT_EXTRA_LIMITS.length, `must be at most ${CONTACT_EXTRA_LIMITS.length} characters`),
    )
    .refine(
      (values) => Object.keys(values).length <= CONTACT_EXTRA_LIMITS.columns,
      `A contact can have at most ${CONTACT_EXTRA_LIMITS.columns} custom columns`,
    )
    .optional(),
};

/**
 * Beyond the contact form's base payload, all optional: the contact's other columns, the contact's whole set of
 * tags by name (absent keeps them as they are), and the country a number written the national way belongs to.
 */
const ContactFormExtras = {
  ...ContactDetails,
  tags: z
    .array(TagNameSchema, { message: 'must be a list of tag names' })
    .max(TAG_LIMITS.perContact, `A contact can have at most ${TAG_LIMITS.perContact} tags`)
    .optional(),
  default_country: DefaultCountrySchema.optional(),
};

/** Contact form payload. */
export const ContactCreateRequestSchema = z
  .object({
    customer_name: CustomerNameSchema,
    whatsapp_number: WhatsappNumberSchema,
    ...ContactFormExtras,
  })
  .meta({ id: 'ContactCreateRequest' });

export const ContactUpdateRequestSchema = z
  .object({
    customer_id: z.coerce
      .number({ message: 'must be a contact id' })
      .int('must be a contact id')
      .positive('must be a contact id'),
    customer_name: CustomerNameSchema,
    whatsapp_number: WhatsappNumberSchema,
    ...ContactFormExtras,
  })
  .meta({ id: 'ContactUpdateRequest' });

/** Tag: count is the number of this account's contacts carrying it. */
export const TagSchema = z
  .object({ id: IdSchema, name: z.string(), count: z.number().int() })
  .meta({ id: 'Tag' });
export const TagListResponseSchema = z.array(TagSchema).meta({ id: 'TagList' });

export const ContactColumnsResponseSchema = z.array(z.string()).meta({ id: 'ContactColumns' });

export const ImportResultSchema = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    /** Data rows read (every valid row, duplicates included). */
    total: z.number().int(),
    /** Rows whose number appeared again further down the file; the last such row wins. */
    duplicates_in_file: z.number().int(),
  })
  .meta({ id: 'ImportResult' });

/** A refused import names each bad row, counted as a spreadsheet shows it (header = row 1). */
export const ImportRowErrorsResponseSchema = z
  .object({
    detail: z.string(),
    message: z.object({
      errors: z.array(z.object({ row: z.number().int(), errors: z.array(z.string()) })),
    }),
  })
  .meta({ id: 'ImportRowErrors' });

export type Contact = z.infer<typeof ContactSchema>;
export type ContactList = z.infer<typeof ContactListResponseSchema>;
export type ContactListQuery = z.infer<typeof ContactListQuerySchema>;
export type Tag = z.infer<typeof TagSchema>;
export type ImportResult = z.infer<typeof ImportResultSchema>;
export type ImportRowError = z.infer<typeof ImportRowErrorsResponseSchema>['message']['errors'][number];
