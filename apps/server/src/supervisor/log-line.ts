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
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

/**
 * Makes a formatter that turns a child's pino JSON lines into short lines for the `npm start` console
 * (`null` drops a line). It remembers each request's method and URL from Fastify's "incoming request" line,
 * since "request completed" carries only the request id. Anything that is not pino JSON passes unchanged.
 * Production (`herald serve`) keeps raw JSON.
 */
export function createLogFormatter(): (line: string) => string | null {
  const pending = new Map<string, string>();
  return (line) => {
    if (!line.startsWith('{')) return line;
    let entry: PinoLine;
    try {
      entry = JSON.parse(line) as PinoLine;
    } catch {
      return line;
    }
    if (typeof entry.level !== 'number' || typeof entry.msg !== 'string') return line;
    const level = LEVELS[entry.level] ?? String(entry.level);
    if (entry.msg === 'incoming request') {
      if (entry.reqId) pending.set(entry.reqId, `${entry.req?.method ?? ''} ${entry.req?.url ?? ''}`);
      // Bounded: a request that never completes must not grow the map forever.
      if (pending.size > 1_000) pending.delete(pending.keys().next().value!);
      return null;
    }
    if (entry.msg === 'request completed' && entry.res) {
      const request = (entry.reqId && pending.get(entry.reqId)) ?? '';
      if (entry.reqId) pending.delete(entry.reqId);
      const ms = entry.responseTime === undefined ? '' : ` (${entry.responseTime.toFixed(1)} ms)`;
      return `${level} ${entry.res.statusCode} ${request}${ms}`.replace(/ +/g, ' ');
    }
    return `${level} ${entry.msg}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
  };
}
