import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageSender } from './message-sender';

/**
 * The sender's pooled sockets are closed by Herald once idle, before the server closes them: a request written
 * to a socket the server is closing at that moment is reset after the write, and its message is left unconfirmed
 * (never resent). A Cloud API of our own here counts the connections it is given and keeps them open (as
 * Fastify's 72 s or Meta's keep-alive would), so only the client can close one.
 */
let server: Server;
let baseUrl: string;
let connections = 0;
let closed = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          messaging_product: 'whatsapp',
          contacts: [{ input: '447911123456', wa_id: '447911123456' }],
          messages: [{ id: `wamid.idle.${connections}` }],
        }),
      );
    });
  });
  server.keepAliveTimeout = 600_000;
  server.on('connection', (socket) => {
    connections += 1;
    socket.on('close', () => (closed += 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const body = {
  messaging_product: 'whatsapp',
  to: '447911123456',
  type: 'template',
  template: { name: 'hi' },
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sender’s idle sockets', () => {
  it('reuses a socket while it is busy, and closes it itself once idle past its limit', async () => {
    connections = 0;
    closed = 0;
    const sender = new MessageSender(baseUrl, 'v21.0', 64, 300);
    expect((await sender.send('token', '123', body)).kind).toBe('accepted');
    expect((await sender.send('token', '123', body)).kind).toBe('accepted');
    expect(connections).toBe(1);
    await pause(700);
    // Closed by the client: the server never ends a connection here.
    expect(closed).toBe(1);
    expect((await sender.send('token', '123', body)).kind).toBe('accepted');
    expect(connections).toBe(2);
  });
});
