import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Contact, Segment } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

const person: Contact = {
  id: 1,
  recipient_name: 'Person 1',
  whatsapp_number: '+14155551001',
  recipient_age: null,
  recipient_gender: null,
  recipient_address: null,
  recipient_post_code: null,
  recipient_email: null,
  tags: [],
};

const segment = (id: number, name: string): Segment => ({
  id,
  name,
  definition: { match: 'all', groups: [{ match: 'all', rules: [{ kind: 'opted_in', from: '2025-01-01' }] }] },
  description: ['Opted in from 2025-01-01'],
  created_at: '2025-05-01T10:00:00Z',
  updated_at: '2025-05-01T10:00:00Z',
});

function server() {
  return stubFetch((request) => {
    const path = pathOf(request);
    if (path === '/recipient/tags/') return json([{ id: 7, name: 'VIP', count: 12 }]);
    if (path === '/dashboard/header') return json({ contacts: 1, events: [], unread: 0 });
    if (path === '/segments/') return json({ results: [segment(5, 'Lapsed'), segment(6, 'New this year')] });
    if (path === '/recipient/create/')
      return json({ count: 1, next: null, previous: null, results: [person] });
    return json({}, 404);
  });
}

function listQueries(fetch: ReturnType<typeof stubFetch>) {
  return fetch
    .requests()
    .filter((r) => pathOf(r) === '/recipient/create/' && r.method === 'GET')
    .map((r) => Object.fromEntries(new URL(r.url).searchParams));
}

describe('Customers filtered by a segment', () => {
  it('opens filtered by ?segment=, shows it among the filters, and clears it', async () => {
    const fetch = server();
    const { router } = renderRoute('/customers?segment=5', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    expect(listQueries(fetch)[0]).toMatchObject({ page: '1', segment_id: '5' });

    const filters = screen.getByRole('region', { name: 'Active filters' });
    expect(await within(filters).findByText('Segment: Lapsed')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Segment' }) as HTMLSelectElement).value).toBe('5');
    expect(screen.getByRole('link', { name: 'Segments' }).getAttribute('href')).toBe('/customers/segments');

    fireEvent.click(within(filters).getByRole('button', { name: 'Remove filter Segment: Lapsed' }));
    await waitFor(() => expect(listQueries(fetch).at(-1)).not.toHaveProperty('segment_id'));
    expect(router.state.location.search).toBe('');
    expect(screen.queryByRole('region', { name: 'Active filters' })).toBeNull();
  });

  it('filters by the segment chosen, from page 1, and writes it to the address', async () => {
    const fetch = server();
    const { router } = renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    expect(listQueries(fetch)[0]).not.toHaveProperty('segment_id');
    const select = screen.getByRole('combobox', { name: 'Segment' });
    expect(within(select).getByRole('option', { name: 'All contacts' })).toBeTruthy();
    await within(select).findByRole('option', { name: 'New this year' });

    fireEvent.change(select, { target: { value: '6' } });
    await waitFor(() => expect(listQueries(fetch).at(-1)).toMatchObject({ page: '1', segment_id: '6' }));
    expect(router.state.location.search).toBe('?segment=6');

    fireEvent.change(select, { target: { value: '' } });
    await waitFor(() => expect(listQueries(fetch).at(-1)).not.toHaveProperty('segment_id'));
    expect(router.state.location.search).toBe('');
  });
});
