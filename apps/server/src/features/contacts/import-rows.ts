import {
  CONTACT_AGE_RULE,
  CONTACT_EXTRA_LIMITS,
  CONTACT_TEXT_LIMITS,
  EMAIL_PATTERN,
  isSafeText,
  normalizePhoneNumber,
  TAG_LIMITS,
  UNSAFE_TEXT_RULE,
} from '@herald/contracts';
import type { PhoneCountry } from '@herald/contracts';
import { REPLACEMENT_CHARACTER } from './csv-decoder';

/** The import's own columns. `whatsapp_number` is accepted for `number` (it is what /cols lists). */
const KNOWN_COLUMNS = ['name', 'number', 'age', 'gender', 'address', 'post_code', 'email'] as const;
type KnownColumn = (typeof KNOWN_COLUMNS)[number];
const ALIASES: Record<string, KnownColumn> = { whatsapp_number: 'number' };

// The contact form's limits too: one set of rules for a contact, however it is written.
const MAX_LENGTH: Record<Exclude<KnownColumn, 'age' | 'number'>, number> = CONTACT_TEXT_LIMITS;
const MAX_EXTRA_LENGTH = CONTACT_EXTRA_LIMITS.length;
const MAX_EXTRA_COLUMNS = CONTACT_EXTRA_LIMITS.columns;

/** What a row holding U+FFFD is told: its bytes were no text in the encoding the file was read in. */
export const UNREADABLE_TEXT_RULE =
  "has a character that could not be read; save the file as 'CSV UTF-8' and import it again";

/** The problem with one cell's text, if any: a NUL or control character, or an unreadable character. */
function textProblem(value: string): string | null {
  if (!isSafeText(value)) return UNSAFE_TEXT_RULE;
  return value.includes(REPLACEMENT_CHARACTER) ? UNREADABLE_TEXT_RULE : null;
}

export interface ImportHeader {
  columns: Partial<Record<KnownColumn, number>>;
  /** The column of each contact's own tags ('tags'), if the file has one. */
  tags?: number;
  extras: Array<{ name: string; index: number }>;
  width: number;
  /** Each column's name as row errors say it (the stored name, or 'column N' for an unnamed one). */
  names: string[];
}

export interface ImportRow {
  name: string;
  number: string;
  age: number | null;
  gender: string | null;
  address: string | null;
  postCode: string | null;
  email: string | null;
  /** Extra columns as a JSON object text, or null when the row has none filled. */
  attributes: string | null;
  /** The row's own tags (its tags column), each once whatever its case; none without the column. */
  tags: string[];
}

/** What separates a contact's tags in a tags column: a semicolon or a comma (the cell quoted). */
export const TAG_SEPARATOR = /[;,]/;
const MAX_TAG_LENGTH = TAG_LIMITS.length;
const MAX_TAGS_PER_CONTACT = TAG_LIMITS.perContact;

/** A tags cell's tags, and what is wrong with them, if anything. */
function readTags(value: string): { tags: string[]; errors: string[] } {
  const tags = new Map<string, string>();
  const errors: string[] = [];
  for (const raw of value.split(TAG_SEPARATOR)) {
    const tag = raw.trim();
    if (!tag) continue;
    if (tag.length > MAX_TAG_LENGTH) {
      errors.push(`tags: '${tag.slice(0, 40)}…' is longer than ${MAX_TAG_LENGTH} characters`);
      continue;
    }
    if (!tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag);
  }
  if (tags.size > MAX_TAGS_PER_CONTACT) errors.push(`tags: at most ${MAX_TAGS_PER_CONTACT} per contact`);
  return { tags: [...tags.values()], errors };
}

/** 'Date of Birth ' → 'date_of_birth': the names template variables use. */
export function columnName(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Reads the header row: which column holds what. Fails when name or number is missing or a name repeats. */
export function readHeader(record: string[]): { header: ImportHeader } | { errors: string[] } {
  const errors: string[] = [];
  const columns: ImportHeader['columns'] = {};
  const extras: ImportHeader['extras'] = [];
  const seen = new Set<string>();
  const names: string[] = [];
  let tags: number | undefined;
  record.forEach((raw, index) => {
    // Checked like every other cell: Postgres cannot hold a NUL, wherever it is in the file.
    const problem = textProblem(raw);
    if (problem) errors.push(`column ${index + 1} ${problem}`);
    const name = columnName(raw);
    names.push(name || `column ${index + 1}`);
    if (!name) {
      if (raw.trim() !== '' || index < record.length - 1) errors.push(`Column ${index + 1} has no name`);
      return;
    }
    const known = (KNOWN_COLUMNS as readonly string[]).includes(name) ? (name as KnownColumn) : ALIASES[name];
    const key = known ?? name;
    if (seen.has(key)) {
      errors.push(`Column '${raw.trim()}' appears twice`);
      return;
    }
    seen.add(key);
    if (name === 'tags') tags = index;
    else if (known) columns[known] = index;
    else extras.push({ name, index });
  });
  if (columns.name === undefined || columns.number === undefined) {
    errors.unshift(
      'The first row must name the columns: name, number, age, gender, address, post_code, email',
    );
  }
  if (extras.length > MAX_EXTRA_COLUMNS)
    errors.push(`At most ${MAX_EXTRA_COLUMNS} extra columns are allowed`);
  if (errors.length) return { errors };
  return {
    header: { columns, extras, width: record.length, names, ...(tags === undefined ? {} : { tags }) },
  };
}

function cell(record: string[], index: number | undefined): string {
  return index === undefined ? '' : (record[index] ?? '').trim();
}

/** True for a line with nothing in it (spreadsheets export these as ',,,,'): such rows are skipped. */
export function isBlankRecord(record: string[]): boolean {
  return record.every((value) => value.trim() === '');
}

/**
 * Checks one data row against the import rules; answers the row to store or every problem with it. A number
 * without its country code is read in `defaultCountry` when one is given.
 */
export function validateRow(
  record: string[],
  header: ImportHeader,
  defaultCountry?: PhoneCountry,
): { row: ImportRow; errors?: undefined } | { errors: string[] } {
  const errors: string[] = [];
  for (let index = 0; index < record.length; index += 1) {
    const problem = textProblem(record[index]!);
    if (problem) errors.push(`${header.names[index] ?? `column ${index + 1}`} ${problem}`);
  }
  if (record.length > header.width && record.slice(header.width).some((value) => value.trim() !== '')) {
    errors.push(`The row has ${record.length} values but the header has ${header.width} columns`);
  }
  const { columns } = header;
  const text = (column: Exclude<KnownColumn, 'age' | 'number'>, required = false): string | null => {
    const value = cell(record, columns[column]);
    if (!value) {
      if (required) errors.push(`${column} is required`);
      return null;
    }
    if (value.length > MAX_LENGTH[column]) {
      errors.push(`${column} must be at most ${MAX_LENGTH[column]} characters`);
    }
    return value;
  };
  const name = text('name', true);
  const rawNumber = cell(record, columns.number);
  let number = '';
  if (!rawNumber) errors.push('number is required');
  else {
    const phone = normalizePhoneNumber(rawNumber, defaultCountry);
    if (phone.ok) number = phone.e164;
    else errors.push(`number '${rawNumber.slice(0, 40)}' is not valid: ${phone.message}`);
  }
  const rawAge = cell(record, columns.age);
  let age: number | null = null;
  if (rawAge) {
    age = /^\d{1,3}$/.test(rawAge) ? Number(rawAge) : NaN;
    if (!(age >= 0 && age <= 150)) errors.push(CONTACT_AGE_RULE);
  }
  const gender = text('gender');
  const address = text('address');
  const postCode = text('post_code');
  let email = text('email');
  if (email !== null) {
    email = email.toLowerCase();
    if (!EMAIL_PATTERN.test(email))
      errors.push(`email '${email.slice(0, 60)}' is not a valid e-mail address`);
  }
  let attributes: Record<string, string> | null = null;
  for (const extra of header.extras) {
    const value = cell(record, extra.index);
    if (!value) continue;
    if (value.length > MAX_EXTRA_LENGTH) {
      errors.push(`${extra.name} must be at most ${MAX_EXTRA_LENGTH} characters`);
    }
    (attributes ??= {})[extra.name] = value;
  }
  const tags = header.tags === undefined ? { tags: [], errors: [] } : readTags(cell(record, header.tags));
  errors.push(...tags.errors);
  if (errors.length) return { errors };
  return {
    row: {
      name: name!,
      number,
      age,
      gender,
      address,
      postCode,
      email,
      attributes: attributes ? JSON.stringify(attributes) : null,
      tags: tags.tags,
    },
  };
}

const COPY_SPECIAL = /[\\\t\n\r]/;

/** One value in COPY's text format: tab-separated, \N for null, backslash escapes. */
function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/** A row's tags in COPY's text format for import_row_tags (number, tag), a line each; '' without tags. */
export function tagLines(row: ImportRow): string {
  let lines = '';
  for (const tag of row.tags) lines += `${copyValue(row.number)}\t${copyValue(tag)}\n`;
  return lines;
}

/** A row's values in COPY's text format, in the order of CONTACT_LINE_COLUMNS, ending in a line break. */
export function contactLine(row: ImportRow): string {
  return (
    `${copyValue(row.name)}\t${copyValue(row.number)}\t${copyValue(row.age)}\t${copyValue(row.gender)}\t` +
    `${copyValue(row.address)}\t${copyValue(row.postCode)}\t${copyValue(row.email)}\t` +
    `${row.attributes === null ? '{}' : copyValue(row.attributes)}\n`
  );
}

export const CONTACT_LINE_COLUMNS =
  'name, whatsapp_number, age, gender, address, post_code, email, attributes';

/** The staging table's columns: a row's number in the file, then its contactLine. */
export const STAGING_COLUMNS = `line, ${CONTACT_LINE_COLUMNS}`;

/** ',' or ';': whichever separates more fields of the header line (quoted text ignored); ',' on a tie. */
export function detectDelimiter(head: string): ',' | ';' {
  const end = head.search(/\r?\n/);
  const line = end < 0 ? head : head.slice(0, end);
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ',') commas += 1;
    else if (!quoted && c === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/** Which stored columns the file provides: absent ones keep their values when a contact is updated. */
export function providedColumns(header: ImportHeader): string[] {
  const provided = ['name', 'whatsapp_number'];
  const { columns } = header;
  if (columns.age !== undefined) provided.push('age');
  if (columns.gender !== undefined) provided.push('gender');
  if (columns.address !== undefined) provided.push('address');
  if (columns.post_code !== undefined) provided.push('post_code');
  if (columns.email !== undefined) provided.push('email');
  if (header.extras.length) provided.push('attributes');
  return provided;
}
