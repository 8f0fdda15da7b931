import { invalidParameter, missingParameter } from './errors';

// What Graph's analytics edges (pricing and template analytics) share in how their filters are written: field
// modifiers or query parameters, lists with or without brackets and quotes, UNIX timestamps.

/** Splits `a,b(c,d),e([f,g])` at the commas outside brackets: Graph's field list with modifiers. */
export function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(' || char === '[') depth += 1;
    if (char === ')' || char === ']') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts.filter(Boolean);
}

/** `pricing_analytics.start(1).end(2).dimensions(["A","B"])` → { start: '1', end: '2', dimensions: '["A","B"]' }. */
export function modifiersOf(field: string): Record<string, string> {
  const modifiers: Record<string, string> = {};
  const pattern = /\.([a-z_]+)\(((?:[^()]|\([^()]*\))*)\)/g;
  for (const match of field.matchAll(pattern)) modifiers[match[1] as string] = match[2] as string;
  return modifiers;
}

/** `["A","B"]`, `[A,B]`, `A,B`, `[]` or `` → the items, unquoted. */
export function listOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return inner
    .split(',')
    .map((item) => item.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
}

export function timestamp(name: 'start' | 'end', value: string | undefined): number {
  if (value === undefined || value.trim() === '') throw missingParameter(name);
  if (!/^\d{1,12}$/.test(value.trim())) throw invalidParameter(`${name} must be a UNIX timestamp`);
  return Number(value.trim());
}

export function enumList<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T[] {
  const items = listOf(value).map((item) => item.toUpperCase());
  const wrong = items.find((item) => !(allowed as readonly string[]).includes(item));
  if (wrong !== undefined)
    throw invalidParameter(`${name} must be among ${allowed.join(', ')}; got ${wrong}`);
  return items as T[];
}

/** The granularity as written (trimmed, unquoted); missing → Graph's missing-parameter error. */
export function granularityParam(value: string | undefined): string {
  const raw = value?.trim().replace(/^["']|["']$/g, '');
  if (!raw) throw missingParameter('granularity');
  return raw;
}
