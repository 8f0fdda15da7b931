const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

interface PinoLine {
  level?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

/**
 * Turns a child's pino JSON line into one short line for the `npm start` console; `null` drops it.
 * Anything that is not pino JSON passes through unchanged. Production (`herald serve`) keeps raw JSON.
 */
export function formatLogLine(line: string): string | null {
  if (!line.startsWith('{')) return line;
  let entry: PinoLine;
  try {
    entry = JSON.parse(line) as PinoLine;
  } catch {
    return line;
  }
  if (typeof entry.level !== 'number' || typeof entry.msg !== 'string') return line;
  // "incoming request" says nothing that "request completed" does not say better.
  if (entry.msg === 'incoming request') return null;
  const level = LEVELS[entry.level] ?? String(entry.level);
  if (entry.msg === 'request completed' && entry.res) {
    const ms = entry.responseTime === undefined ? '' : ` (${entry.responseTime.toFixed(1)} ms)`;
    return `${level} ${entry.res.statusCode} ${entry.req?.method ?? ''} ${entry.req?.url ?? ''}${ms}`.trim();
  }
  return `${level} ${entry.msg}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
}
