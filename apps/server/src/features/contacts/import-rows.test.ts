import { describe, expect, it } from 'vitest';
import { searchPatterns } from './contacts-repo';
import {
  columnName,
  contactLine,
  detectDelimiter,
  type ImportHeader,
  isBlankRecord,
  providedColumns,
  readHeader,
  tagLines,
  UNREADABLE_TEXT_RULE,
  validateRow,
} from './import-rows';

function header(record: string[]): ImportHeader {
  const result = readHeader(record);
  if ('errors' in result) throw new Error(result.errors.join('; '));
  return result.header;
}

const FULL = header(['name', 'number', 'age', 'gender', 'address', 'post_code', 'email']);

describe('readHeader', () => {
  it('maps the known columns in any order and case, and keeps others as extras', () => {
    const result = header([' Number ', 'NAME', 'Loyalty Tier', 'email', 'whatsapp-id']);
    expect(result.columns).toEqual({ number: 0, name: 1, email: 3 });
    expect(result.extras).toEqual([
      { name: 'loyalty_tier', index: 2 },
      { name: 'whatsapp_id', index: 4 },
    ]);
    expect(header(['name', 'whatsapp_number']).columns).toEqual({ name: 0, number: 1 });
  });

  it('requires name and number, refuses repeated and unnamed columns', () => {
    expect(readHeader(['name', 'phone'])).toEqual({
      errors: ['The first row must name the columns: name, number, age, gender, address, post_code, email'],
    });
    expect(readHeader(['name', 'number', 'Number'])).toEqual({ errors: ["Column 'Number' appears twice"] });
    expect(readHeader(['name', '', 'number'])).toEqual({ errors: ['Column 2 has no name'] });
    // A trailing empty header cell (spreadsheets add them) is ignored.
    expect('header' in readHeader(['name', 'number', ''])).toBe(true);
  });

  it('names the stored columns the file provides', () => {
    expect(providedColumns(header(['name', 'number']))).toEqual(['name', 'whatsapp_number']);
    expect(providedColumns(header(['name', 'number', 'email', 'vip']))).toEqual([
      'name',
      'whatsapp_number',
      'email',
      'attributes',
    ]);
  });
});

describe('validateRow', () => {
  it('trims, normalises the number to E.164, lower-cases the e-mail, and collects extras as JSON', () => {
    const withExtra = header(['name', 'number', 'age', 'email', 'tier', 'notes']);
    expect(
      validateRow([' Ada ', '+1 415 555 0123', '36', ' ADA@Example.com', 'gold', ''], withExtra),
    ).toEqual({
      row: {
        name: 'Ada',
        number: '+14155550123',
        age: 36,
        gender: null,
        address: null,
        postCode: null,
        email: 'ada@example.com',
        attributes: '{"tier":"gold"}',
        tags: [],
      },
    });
  });

  it('lists every problem of a row', () => {
    expect(validateRow(['', '12', '-1', 'm', '', '', 'not-mail'], FULL)).toEqual({
      errors: [
        'name is required',
        "number '12' is not valid: The number is too short",
        'age must be a whole number from 0 to 150',
        "email 'not-mail' is not a valid e-mail address",
      ],
    });
    expect(validateRow(['A', '', '151'], FULL)).toEqual({
      errors: ['number is required', 'age must be a whole number from 0 to 150'],
    });
    expect(validateRow(['A'.repeat(201), '+14155550123'], FULL).errors).toEqual([
      'name must be at most 200 characters',
    ]);
  });

  it('accepts short rows and empty trailing cells, refuses surplus values', () => {
    expect(validateRow(['A', '+14155550123'], FULL).errors).toBeUndefined();
    expect(validateRow(['A', '+14155550123', '', '', '', '', '', '', ''], FULL).errors).toBeUndefined();
    expect(validateRow(['A', '+14155550123', '', '', '', '', '', 'x'], FULL).errors).toEqual([
      'The row has 8 values but the header has 7 columns',
    ]);
  });

  it('treats a row of empty cells as blank', () => {
    expect(isBlankRecord(['', ' ', ''])).toBe(true);
    expect(isBlankRecord([''])).toBe(true);
    expect(isBlankRecord(['', 'x'])).toBe(false);
  });
});

describe('contactLine', () => {
  it('writes COPY text format: tabs between values, \\N for null, escapes for backslash, tab and breaks', () => {
    const row = {
      name: 'A\\B\tC',
      number: '+14155550123',
      age: null,
      gender: null,
      address: 'line 1\r\nline 2',
      postCode: null,
      email: null,
      attributes: '{"a":"b"}',
      tags: [],
    };
    expect(contactLine(row)).toBe(
      'A\\\\B\\tC\t+14155550123\t\\N\t\\N\tline 1\\r\\nline 2\t\\N\t\\N\t{"a":"b"}\n',
    );
  });

  it('writes no extra columns as an empty object (contacts.attributes is never null)', () => {
    const row = {
      name: 'Ann',
      number: '+14155550123',
      age: 30,
      gender: 'female',
      address: null,
      postCode: '94107',
      email: 'ann@example.com',
      attributes: null,
      tags: [],
    };
    expect(contactLine(row)).toBe('Ann\t+14155550123\t30\tfemale\t\\N\t94107\tann@example.com\t{}\n');
  });
});

describe('a tags column', () => {
  const tagged = header(['name', 'number', 'Tags']);

  it("is read apart from the contact's columns", () => {
    expect(tagged.tags).toBe(2);
    expect(tagged.extras).toEqual([]);
    expect(header(['name', 'number']).tags).toBeUndefined();
  });

  it('gives each row its tags, split at semicolons or commas, each once whatever its case', () => {
    const checked = validateRow(['Ann', '+14155550123', ' vip; Newsletter,vip ;; NEWSLETTER '], tagged);
    if (checked.errors) throw new Error(checked.errors.join('; '));
    expect(checked.row.tags).toEqual(['vip', 'Newsletter']);
    expect(validateRow(['Ann', '+14155550123', ''], tagged)).toMatchObject({ row: { tags: [] } });
    expect(tagLines(checked.row)).toBe('+14155550123\tvip\n+14155550123\tNewsletter\n');
  });

  it('refuses a tag over 100 characters and more than 50 tags, naming the column', () => {
    expect(validateRow(['Ann', '+14155550123', `ok;${'x'.repeat(101)}`], tagged).errors).toEqual([
      `tags: '${'x'.repeat(40)}…' is longer than 100 characters`,
    ]);
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`).join(';');
    expect(validateRow(['Ann', '+14155550123', many], tagged).errors).toEqual([
      'tags: at most 50 per contact',
    ]);
  });
});

describe('detectDelimiter', () => {
  it('picks the delimiter of the header line, ignoring quoted text and later lines', () => {
    expect(detectDelimiter('name,number,email\n')).toBe(',');
    expect(detectDelimiter('name;number;email\r\na,b;c;d,e,f,g,h\n')).toBe(';');
    expect(detectDelimiter('"a;b;c";number\n')).toBe(';');
    expect(detectDelimiter('"x;y;z",number,email\n')).toBe(',');
    expect(detectDelimiter('name')).toBe(',');
  });
});

describe('columnName and searchPatterns', () => {
  it('turns header text into variable names', () => {
    expect(columnName(' Date of Birth ')).toBe('date_of_birth');
    expect(columnName('Post-Code')).toBe('post_code');
    expect(columnName('***')).toBe('');
  });

  it('escapes LIKE wildcards and adds the digits of a phone-like search', () => {
    expect(searchPatterns(' Ada ')).toEqual(['%ada%']);
    expect(searchPatterns('100%_a\\b')).toEqual(['%100\\%\\_a\\\\b%']);
    expect(searchPatterns('+1 (415) 555')).toEqual(['%+1 (415) 555%', '%1415555%']);
    expect(searchPatterns('4155')).toEqual(['%4155%']);
  });
});

describe('validateRow: unreadable characters and national numbers', () => {
  it('refuses a cell holding U+FFFD, naming its column, and a header holding one', () => {
    expect(validateRow(['Jos\uFFFD', '+14155550123', '', '', '', '', ''], FULL)).toEqual({
      errors: [`name ${UNREADABLE_TEXT_RULE}`],
    });
    expect(readHeader(['name', 'number', 'R\uFFFDgion'])).toEqual({
      errors: [`column 3 ${UNREADABLE_TEXT_RULE}`],
    });
  });

  it('reads a number without its country code in the default country, and only then', () => {
    const row = ['Lena', '0151 12340016'];
    const NAMES = header(['name', 'number']);
    expect(validateRow(row, NAMES, 'DE')).toMatchObject({ row: { number: '+4915112340016' } });
    expect(validateRow(row, NAMES)).toMatchObject({
      errors: [expect.stringContaining("number '0151 12340016' is not valid")],
    });
    expect(validateRow(['Ana', '+44 7911 123456'], NAMES, 'DE')).toMatchObject({
      row: { number: '+447911123456' },
    });
  });
});
