import { expect } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  BroadcastEstimateRequest,
  BroadcastEstimateResponse,
  Contact,
  LinkSettingsResponse,
  PhoneNumber,
  Segment,
  SegmentCountResponse,
  TemplateDetail,
} from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch, type FetchHandler } from '../../../test/fetch-stub';
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
  /** POST /broadcast/estimate/; a promise holds the answer until the test resolves it. */
  estimate?: (
    body: BroadcastEstimateRequest,
  ) => BroadcastEstimateResponse | Promise<BroadcastEstimateResponse>;
  /** POST /broadcast/test/; 404 when not given. */
  testSend?: (request: Request) => Response | Promise<Response>;
  /** GET /broadcast/{id}/recipients/: the report a retarget link names; 404 when not given. */
  report?: (id: number) => Response;
  /** GET /meta/templates/1/ (summer_sale by default). */
  template?: TemplateDetail;
  /** GET of the template's media_url. */
  media?: () => Response;
  /** GET /broadcast/links/; 404 (a server before tracked links) when not given. */
  links?: LinkSettingsResponse;
  /** GET /segments/; 404 when not given. */
  segments?: Segment[];
  /** POST /segments/count/ (with `segments`); 200 matching, 190 reachable by default. */
  segmentCount?: SegmentCountResponse;
  /** GET /recipient/create/?segment_id=: the segment's members (none by default). */
  segmentMembers?: Contact[];
};

export const connected = phoneNumber('1001', { display_phone_number: '+1 555-0101' });

/** A fake of the calls the New broadcast screen makes, as a fetch handler (another page's test can answer them). */
export function newBroadcastCalls({
  contacts = [ana],
  contactCount = 1234,
  create = () => json({ id: 41, status: 'sending', total_recipients: 10 }, 201),
  numbers = [connected],
  estimate = () => estimateAnswer(),
  testSend,
  report,
  template = summerSale,
  media,
  links,
  segments,
  segmentCount = { matching: 200, reachable: 190 },
  segmentMembers = [],
}: ServerOptions = {}): FetchHandler {
  return async (request) => {
    const path = pathOf(request);
    if (path === '/broadcast/test/' && request.method === 'POST' && testSend) return testSend(request);
    const reportOf = /^\/broadcast\/(\d+)\/recipients\/$/.exec(path);
    if (reportOf && report) return report(Number(reportOf[1]));
    if (media && template.media_url && path === template.media_url) return media();
    if (path === '/broadcast/create/' && request.method === 'POST') return create(request);
    if (path === '/broadcast/estimate/' && request.method === 'POST')
      return json(await estimate((await request.json()) as BroadcastEstimateRequest));
    if (path === '/broadcast/links/' && links) return json(links);
    if (path === '/segments/' && segments) return json({ results: segments });
    if (path === '/segments/count/' && request.method === 'POST' && segments) return json(segmentCount);
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
    if (path === '/meta/templates/1/') return json(template);
    if (path === '/recipient/tags/') return json(tags);
    if (path === '/recipient/create/' && new URL(request.url).searchParams.has('segment_id'))
      return json({ count: segmentMembers.length, next: null, previous: null, results: segmentMembers });
    if (path === '/recipient/create/') {
      return contactCount === null
        ? json({ detail: 'Unavailable' }, 503)
        : json({ count: contactCount, next: null, previous: null, results: contacts });
    }
    return json({ detail: 'Not found' }, 404);
  };
}

/** The New broadcast screen's calls answered by newBroadcastCalls. */
export function broadcastServer(options: ServerOptions = {}) {
  return stubFetch(newBroadcastCalls(options));
}

export async function renderPage(options?: ServerOptions, url = '/broadcast/new') {
  const fetchMock = broadcastServer(options);
  const rendered = renderRoute(url, { preloadedState: withAccount });
  // The first render of a file also loads the lazy page: more than the default second on a busy machine.
  await screen.findByRole('option', { name: 'summer_sale (en_US)' }, { timeout: 5000 });
  return { fetchMock, ...rendered };
}

export const section = (name: string) => screen.getByRole('region', { name });
export const selected = () => screen.getByRole('status', { name: 'Selected recipients' }).textContent;
export const afterPercentage = () =>
  screen.getByRole('status', { name: 'Recipients after percentage' }).textContent;
/** Presses 'Send Broadcast' (or 'Schedule Broadcast') and, when the form is valid, confirms in the dialog. */
export const submit = () => {
  fireEvent.click(screen.getByRole('button', { name: /^(Send|Schedule) Broadcast$/ }));
  const dialog = screen.queryByRole('dialog');
  if (dialog) fireEvent.click(within(dialog).getByRole('button', { name: /^(Send|Schedule) Broadcast$/ }));
};

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
