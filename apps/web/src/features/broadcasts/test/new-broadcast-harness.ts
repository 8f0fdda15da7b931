import { expect } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type {
  BroadcastEstimateRequest,
  BroadcastEstimateResponse,
  Contact,
  PhoneNumber,
} from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import {
  ana,
  estimateAnswer,
  listPage,
  phoneNumber,
  summerSale,
  tags,
  templates,
  withAccount,
} from './broadcast-fixtures';

/* The New broadcast screen under test: a fake of its calls, and the ways its tests read and drive it. */

export type ServerOptions = {
  contacts?: Contact[];
  /** The real contact total; null answers the contact list with an error. */
  contactCount?: number | null;
  create?: (request: Request) => Response | Promise<Response>;
  numbers?: PhoneNumber[];
  estimate?: (body: BroadcastEstimateRequest) => BroadcastEstimateResponse;
};

export const connected = phoneNumber('1001', { display_phone_number: '+1 555-0101' });

/** A fake of the calls the New broadcast screen makes. */
export function broadcastServer({
  contacts = [ana],
  contactCount = 1234,
  create = () => json({ id: 41, status: 'sending', total_recipients: 10 }, 201),
  numbers = [connected],
  estimate = () => estimateAnswer(),
}: ServerOptions = {}) {
  return stubFetch(async (request) => {
    const path = pathOf(request);
    if (path === '/broadcast/create/' && request.method === 'POST') return create(request);
    if (path === '/broadcast/estimate/' && request.method === 'POST')
      return json(estimate((await request.json()) as BroadcastEstimateRequest));
    if (path === '/meta/phone/whatsapp/') return json({ data: numbers });
    if (path === '/broadcast/create/') return json(listPage([]));
    if (path === '/meta/templates/') {
      return json({
        count: templates.length,
        currentPage: 1,
        next: null,
        previous: null,
        results: templates,
      });
    }
    if (path === '/meta/templates/1/') return json(summerSale);
    if (path === '/recipient/tags/') return json(tags);
    if (path === '/recipient/create/') {
      return contactCount === null
        ? json({ detail: 'Unavailable' }, 503)
        : json({ count: contactCount, next: null, previous: null, results: contacts });
    }
    return json({ detail: 'Not found' }, 404);
  });
}

export async function renderPage(options?: ServerOptions) {
  const fetchMock = broadcastServer(options);
  const rendered = renderRoute('/broadcast/new', { preloadedState: withAccount });
  // The first render of a file also loads the lazy page: more than the default second on a busy machine.
  await screen.findByRole('option', { name: 'summer_sale (en_US)' }, { timeout: 5000 });
  return { fetchMock, ...rendered };
}

export const section = (name: string) => screen.getByRole('region', { name });
export const selected = () => screen.getByRole('status', { name: 'Selected recipients' }).textContent;
export const afterPercentage = () =>
  screen.getByRole('status', { name: 'Recipients after percentage' }).textContent;
export const submit = () =>
  fireEvent.click(screen.getByRole('button', { name: /^(Send|Schedule) Broadcast$/ }));

export function fillDetails(name = 'Summer launch', templateId = '1') {
  fireEvent.change(screen.getByRole('textbox', { name: 'Broadcast Name' }), { target: { value: name } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Message Template' }), {
    target: { value: templateId },
  });
}

export const isCreate = (r: Request) => r.method === 'POST' && pathOf(r) === '/broadcast/create/';

export async function postedBody(fetchMock: ReturnType<typeof stubFetch>) {
  await waitFor(() => expect(fetchMock.requests().some(isCreate)).toBe(true));
  return fetchMock.requests().find(isCreate)!.json();
}

/** The bodies of the estimates asked so far. */
export function estimateBodies(fetchMock: ReturnType<typeof stubFetch>): Promise<BroadcastEstimateRequest[]> {
  return Promise.all(
    fetchMock
      .requests()
      .filter((r) => pathOf(r) === '/broadcast/estimate/')
      .map((r) => r.clone().json() as Promise<BroadcastEstimateRequest>),
  );
}

export const limitLine = () => screen.getByRole('status', { name: 'Messaging limit' }).textContent;
