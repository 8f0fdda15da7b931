/**
 * CSV cells a spreadsheet opens safely (OWASP "CSV injection"): a text cell starting with = + - @, a tab or a
 * carriage return would be read as a formula, so it gets a leading ' ; a cell with a comma, a quote or a line
 * break is quoted, its quotes doubled. Numbers are written as they are, and so is a phone number in E.164
 * (+ and 7 to 15 digits): a spreadsheet reads it as a number, never as a formula, and the file imports back
 * into Customers and any CRM as it is. The SQL twin is neutralisedSql below.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;
export const E164 = /^\+[1-9]\d{6,14}$/;

/** The UTF-8 byte order mark: Excel reads the file as UTF-8 only with it. */
export const UTF8_BOM = '\uFEFF';

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) && !E164.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, ended by LF as COPY ends its lines, so a file never mixes two kinds of line end. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\n`;
}

/** The same neutralising in SQL, for a text expression COPY writes (COPY's CSV format does the quoting). */
export function neutralisedSql(expression: string): string {
  return `case when ${expression} ~ '^[-=+@\\t\\r]' and ${expression} !~ '^\\+[1-9][0-9]{6,14}$'
               then '''' || ${expression} else ${expression} end`;
}
