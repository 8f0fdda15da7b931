import { serverMessage } from './server-message';

/** A readable text for any RTK Query error: the server's own words, else the transport's. */
export function errorText(error: unknown): string {
  const fromServer = serverMessage(error);
  if (fromServer) return fromServer;
  if (typeof error === 'object' && error !== null) {
    const {
      error: transport,
      status,
      message,
    } = error as { error?: unknown; status?: unknown; message?: unknown };
    if (typeof transport === 'string') return transport;
    if (typeof message === 'string') return message;
    if (typeof status === 'number') return `Request failed with status ${status}`;
  }
  return 'Unknown error';
}
