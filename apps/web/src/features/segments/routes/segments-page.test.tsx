import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import type { Segment, Tag } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

const vip: Tag = { id: 7, name: 'VIP', count: 12 };
const london: Tag = { id: 8, name: 'London', count: 3 };

const lapsed: Segment = {
  id: 5,
  name: 'Lapsed VIPs',
  definition: {
    match: 'all',
    groups: [
      {
        match: 'all',
        rules: [
          { kind: 'tags', match: 'any', tag_ids: [7] },
          { kind: 'engagement', event: 'read', did: false, within_days: 30 },
        ],
      },
    ],
  },
  description: ['server words'],
  created_at: '2025-05-01T10:00:00Z',
  updated_at: '2025-05-01T10:00:00Z',
};

/** The segments API (and the tags, columns and broadcasts the builder offers); writes answer `write`. */
function server(
  segments: Segment[] = [],
  write: (request: Request) => Response | Promise<Response> = () => json(lapsed, 201),
) {
  return stubFetch((request) => {
    const path = pathOf(request);
    if (path === '/recipient/tags/') return json([vip, london]);
    if (path === '/dashboard/header') return json({ contacts: 3, events: [], unread: 0 });
    if (path === '/segments/' && request.method === 'GET') return json({ results: segments });
    if (path === '/segments/fields/')
      return json({
        columns: [
          { name: 'recipient_name', custom: false },
          { name: 'loyalty_tier', custom: true },
        ],
        markets: ['Germany', 'India'],
      });
    if (path === '/segments/count/') return json({ matching: 1234, reachable: 1200 });
    if (path === '/broadcast/create/' && request.method === 'GET')
      return json({ count: 1, next: null, previous: null, results: [{ id: 31, name: 'Spring sale' }] });
    return write(request);
  });
}

const writes = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.requests().filter((r) => r.method !== 'GET' && pathOf(r) !== '/segments/count/');
const bodyOf = async (request: Request | undefined) => (request ? await request.clone().json() : undefined);
const counts = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.requests().filter((r) => pathOf(r) === '/segments/count/');

async function openBuilder() {
  fireEvent.click(await screen.findByRole('button', { name: 'New segment' }));
  return screen.getByRole('region', { name: 'New segment' });
}

describe('Segments page', () => {
  it('says what segments are, links back to Customers and shows the empty list', async () => {
    server();
    renderRoute('/customers/segments', { preloadedState: withAccount });
    expect(await screen.findByRole('heading', { level: 1, name: 'Segments' })).toBeTruthy();
    expect(
      screen.getByText(
        "Audiences by what your contacts are and did. Use one as a broadcast's recipients or to filter Customers.",
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe('/customers');
    expect(await screen.findByText('No segments yet.')).toBeTruthy();
  });

  it('counts the rules live once they are complete', async () => {
    const fetch = server();
    renderRoute('/customers/segments', { preloadedState: withAccount });
    const builder = await openBuilder();
    expect(within(builder).getByTestId('segment-count').textContent).toBe(
      'Complete the rules to see the count',
    );
    fireEvent.click(await within(builder).findByRole('checkbox', { name: 'VIP' }));
    await waitFor(
      () =>
        expect(within(builder).getByTestId('segment-count').textContent).toBe(
          '1,234 contacts match · 1,200 can be messaged',
        ),
      { timeout: 2000 },
    );
    expect(await bodyOf(counts(fetch)[0])).toEqual({
      definition: {
        match: 'all',
        groups: [{ match: 'all', rules: [{ kind: 'tags', match: 'any', tag_ids: [7] }] }],
      },
    });
  });

  it('saves a tags rule and an activity rule in two groups, then closes with a toast', async () => {
    const success = vi.spyOn(toast, 'success');
    const fetch = server();
    renderRoute('/customers/segments', { preloadedState: withAccount });
    const builder = await openBuilder();
    fireEvent.change(within(builder).getByLabelText('Segment name'), { target: { value: 'Quiet VIPs' } });
    // The groups' match is offered only once there are two.
    expect(within(builder).queryByRole('combobox', { name: 'Groups' })).toBeNull();

    const first = within(builder).getByRole('region', { name: 'Group 1' });
    fireEvent.change(within(first).getByRole('combobox', { name: 'Contact' }), { target: { value: 'all' } });
    fireEvent.click(await within(first).findByRole('checkbox', { name: 'VIP' }));
    fireEvent.click(within(first).getByRole('checkbox', { name: 'London' }));

    fireEvent.click(within(builder).getByRole('button', { name: 'Add group' }));
    fireEvent.change(within(builder).getByRole('combobox', { name: 'Groups' }), { target: { value: 'any' } });
    const second = within(builder).getByRole('region', { name: 'Group 2' });
    fireEvent.change(within(second).getByRole('combobox', { name: 'Rule' }), {
      target: { value: 'engagement' },
    });
    fireEvent.change(within(second).getByRole('combobox', { name: 'Contact' }), {
      target: { value: 'did_not' },
    });
    fireEvent.change(within(second).getByRole('combobox', { name: 'Activity' }), {
      target: { value: 'replied' },
    });
    fireEvent.change(within(second).getByLabelText('In the last (days)'), { target: { value: '30' } });
    fireEvent.change(await within(second).findByRole('combobox', { name: 'Of broadcast' }), {
      target: { value: '31' },
    });
    fireEvent.click(within(builder).getByRole('button', { name: 'Save segment' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Segment saved'));
    expect(screen.queryByRole('region', { name: 'New segment' })).toBeNull();
    const [post] = writes(fetch);
    expect(post?.method).toBe('POST');
    expect(pathOf(post!)).toBe('/segments/');
    expect(await bodyOf(post)).toEqual({
      name: 'Quiet VIPs',
      definition: {
        match: 'any',
        groups: [
          { match: 'all', rules: [{ kind: 'tags', match: 'all', tag_ids: [7, 8] }] },
          {
            match: 'all',
            rules: [{ kind: 'engagement', event: 'replied', did: false, within_days: 30, broadcast_id: 31 }],
          },
        ],
      },
    });
  });

  it('shows what is missing before sending anything', async () => {
    const fetch = server();
    renderRoute('/customers/segments', { preloadedState: withAccount });
    const builder = await openBuilder();
    fireEvent.click(within(builder).getByRole('button', { name: 'Save segment' }));
    expect(await within(builder).findByText('Please enter a segment name')).toBeTruthy();
    expect(within(builder).getByText('Select at least one tag')).toBeTruthy();
    expect(document.activeElement).toBe(within(builder).getByLabelText('Segment name'));
    expect(writes(fetch)).toEqual([]);
  });

  it("shows the server's message under the rule's field it names", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = server([], () =>
      json(
        {
          message: 'Invalid request',
          errors: [{ field: 'definition.groups.0.rules.0.value', message: 'Too long for this column' }],
        },
        400,
      ),
    );
    renderRoute('/customers/segments', { preloadedState: withAccount });
    const builder = await openBuilder();
    fireEvent.change(within(builder).getByLabelText('Segment name'), { target: { value: 'Gold' } });
    const group = within(builder).getByRole('region', { name: 'Group 1' });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Rule' }), { target: { value: 'text' } });
    await within(group).findByRole('option', { name: 'loyalty_tier' });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Column' }), {
      target: { value: 'loyalty_tier' },
    });
    fireEvent.change(within(group).getByLabelText('Value'), { target: { value: 'Gold' } });
    fireEvent.click(within(builder).getByRole('button', { name: 'Save segment' }));

    expect(await within(group).findByText('Too long for this column')).toBeTruthy();
    expect(within(group).getByLabelText('Value').getAttribute('aria-invalid')).toBe('true');
    expect(await bodyOf(writes(fetch)[0])).toMatchObject({
      definition: {
        groups: [{ rules: [{ kind: 'text', column: 'loyalty_tier', op: 'equals', value: 'Gold' }] }],
      },
    });
    // Still open, to fix and save again.
    expect(within(builder).getByRole('button', { name: 'Save segment' })).toBeTruthy();
    expect(consoleError).toHaveBeenCalledWith('Saving the segment failed', expect.anything());
  });

  it('lists saved segments in words, edits one and deletes one after asking', async () => {
    const fetch = server([lapsed], (request) =>
      request.method === 'DELETE' ? new Response(null, { status: 204 }) : json(lapsed),
    );
    renderRoute('/customers/segments', { preloadedState: withAccount });
    const item = await screen.findByRole('listitem', { name: 'Lapsed VIPs' });
    // Said with the tags' names as the tags list has them.
    await within(item).findByText('All of: Tags: any of “VIP”; Did not read a broadcast in the last 30 days');
    expect(within(item).getByRole('link', { name: 'View customers' }).getAttribute('href')).toBe(
      '/customers?segment=5',
    );

    fireEvent.click(within(item).getByRole('button', { name: 'Edit' }));
    const builder = screen.getByRole('region', { name: 'Edit segment' });
    expect((within(builder).getByLabelText('Segment name') as HTMLInputElement).value).toBe('Lapsed VIPs');
    expect((within(builder).getByLabelText('In the last (days)') as HTMLInputElement).value).toBe('30');
    fireEvent.change(within(builder).getByLabelText('Segment name'), { target: { value: 'Lapsed' } });
    fireEvent.click(within(builder).getByRole('button', { name: 'Save segment' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit segment' })).toBeNull());
    const [put] = writes(fetch);
    expect(put?.method).toBe('PUT');
    expect(pathOf(put!)).toBe('/segments/5/');
    expect(await bodyOf(put)).toEqual({ name: 'Lapsed', definition: lapsed.definition });

    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete segment?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete segment?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(fetch).map((r) => [r.method, pathOf(r)])).toContainEqual(['DELETE', '/segments/5/']);
  });
});
