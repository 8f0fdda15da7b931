/**
 * Whether an error means the database cannot be reached right now (down, restarting, failing over) rather
 * than a fault in the request or the code: such errors answer 503 with Retry-After (decision 021).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception) and 57P01–57P03 (admin or crash shutdown, cannot connect now).
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code)) return true;
    // 25006: the database is read-only (a failover, an operator); class 53: out of disk, memory or connections.
    if (code === '25006' || /^53[0-9A-Z]{3}$/.test(code)) return true;
  }
  // node-postgres's own messages for a connection lost or never made carry no code.
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((text) => message.includes(text));
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** What the API answers while the database is away. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Try again in a moment.';
