import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import type { Contact, Tag } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';

const account = {
  waba_id: '111',
  details: [{ display_name: 'Acme Shop', phone_number_id: '9', display_phone_number: '+49 30 1234567' }],
};
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

const vip: Tag = { id: 7, name: 'VIP', count: 12 };
const london: Tag = { id: 8, name: 'London', count: 3 };

function contact(id: number, tags: Contact['tags'] = []): Contact {
  return {
    id,
    recipient_name: `Person ${id}`,
    whatsapp_number: `+1415555${String(1000 + id).padStart(4, '0')}`,
    recipient_age: null,
    recipient_gender: null,
    recipient_address: null,
    recipient_post_code: null,
    recipient_email: null,
    tags,
  };
}

const rows = [
  contact(1, [{ id: 7, tag_name: 'VIP' }]),
  contact(2),
  contact(3, [{ id: 8, tag_name: 'London' }]),
];

/** The contacts API over `rows` (one page); writes answer `write`. */
function server(write: (request: Request) => Response | Promise<Response> = () => json({}, 200)) {
  return stubFetch((request) => {
    const path = pathOf(request);
    if (path === '/recipient/tags/') return json([london, vip]);
    if (path === '/dashboard/header') return json({ contacts: rows.length, events: [], unread: 0 });
    if (path === '/recipient/create/' && request.method === 'GET')
      return json({ count: rows.length, next: null, previous: null, results: rows });
    return write(request);
  });
}

function listQueries(fetch: ReturnType<typeof stubFetch>) {
  return fetch
    .requests()
    .filter((r) => pathOf(r) === '/recipient/create/' && r.method === 'GET')
    .map((r) => Object.fromEntries(new URL(r.url).searchParams));
}

const writes = (fetch: ReturnType<typeof stubFetch>) => fetch.requests().filter((r) => r.method !== 'GET');
const bodyOf = async (request: Request | undefined) => (request ? await request.clone().json() : undefined);

describe('Tags in the add/edit form', () => {
  it('adds tags as chips (an existing tag keeps its spelling), removes one, and sends the set', async () => {
    const fetch = server(() => json(contact(9), 201));
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    fireEvent.click(screen.getByRole('button', { name: 'Add New Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Contact' });
    // The business number is German: a number typed the national way is read as German.
    expect((within(dialog).getByRole('combobox', { name: 'Country' }) as HTMLSelectElement).value).toBe('DE');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Jonas' } });
    fireEvent.change(within(dialog).getByLabelText('WhatsApp Number'), {
      target: { value: '0151 12340016' },
    });
    const tagInput = within(dialog).getByLabelText('Tags');
    fireEvent.change(tagInput, { target: { value: 'vip' } });
    fireEvent.keyDown(tagInput, { key: 'Enter' });
    fireEvent.change(tagInput, { target: { value: 'Berlin' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    fireEvent.change(tagInput, { target: { value: 'Spare' } });
    fireEvent.keyDown(tagInput, { key: 'Enter' });
    const chips = within(dialog).getByRole('list', { name: 'Tags of this contact' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['VIP', 'Berlin', 'Spare']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove tag Spare' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await bodyOf(writes(fetch)[0])).toEqual({
      customer_name: 'Jonas',
      whatsapp_number: '+4915112340016',
      tags: ['VIP', 'Berlin'],
    });
  });

  it('opens from a row in update mode with Delete beside Update, which asks before deleting', async () => {
    const fetch = server();
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Person 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    expect(
      within(within(dialog).getByRole('list', { name: 'Tags of this contact' })).getByText('VIP'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Update Contact' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Contact' });
    expect(within(confirm).getByText('Delete Person 1? This cannot be undone.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    // The name in the row opens the same form.
    fireEvent.click(screen.getByRole('button', { name: 'Person 3' }));
    expect(
      (
        within(screen.getByRole('dialog', { name: 'Edit Contact' })).getByLabelText(
          'Name',
        ) as HTMLInputElement
      ).value,
    ).toBe('Person 3');
    expect(writes(fetch)).toEqual([]);
  });
});

describe('Bulk Add tag / Remove tag on checked rows', () => {
  it('selects all on the page, adds a tag to every checked contact, then clears the selection', async () => {
    const success = vi.spyOn(toast, 'success');
    const fetch = server(() => json({ tag: { id: 20, name: 'Spring', count: 3 }, changed: 3 }));
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    expect(screen.queryByRole('form', { name: 'Tag the selected contacts' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    const bar = screen.getByRole('form', { name: 'Tag the selected contacts' });
    expect(within(bar).getByText('3 selected')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Add tag' }));
    expect(within(bar).getByRole('alert').textContent).toBe('Tag name is required');
    fireEvent.change(within(bar).getByLabelText('Tag name'), { target: { value: 'Spring' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Add tag' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Tag "Spring" added to 3 contacts'));
    const [post] = writes(fetch);
    expect(post && pathOf(post)).toBe('/recipient/tags/add/');
    expect(await bodyOf(post)).toEqual({ contact_ids: [1, 2, 3], tag_name: 'Spring' });
    expect(screen.queryByRole('form', { name: 'Tag the selected contacts' })).toBeNull();
    expect((screen.getByRole('checkbox', { name: 'Select Person 1' }) as HTMLInputElement).checked).toBe(
      false,
    );
  });

  it('removes an existing tag from the checked rows by its id; an unknown name is said, not sent', async () => {
    const fetch = server(() => json({ tag: { ...vip, count: 11 }, changed: 1 }));
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Person 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Person 3' }));
    const bar = screen.getByRole('form', { name: 'Tag the selected contacts' });
    expect(within(bar).getByText('2 selected')).toBeTruthy();
    fireEvent.change(within(bar).getByLabelText('Tag name'), { target: { value: 'Nope' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Remove tag' }));
    expect(within(bar).getByRole('alert').textContent).toBe('No tag is named "Nope"');
    expect(writes(fetch)).toEqual([]);
    fireEvent.change(within(bar).getByLabelText('Tag name'), { target: { value: 'vip' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Remove tag' }));
    await waitFor(() => expect(writes(fetch)).toHaveLength(1));
    expect(pathOf(writes(fetch)[0]!)).toBe('/recipient/tags/remove/');
    expect(await bodyOf(writes(fetch)[0])).toEqual({ contact_ids: [1, 3], tag_id: 7 });
  });
});

describe('Filters by tag and opt-out', () => {
  it('filters by a row’s tag chip and by the tag list, shows each filter, and removes them', async () => {
    const fetch = server();
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    const table = screen.getByRole('table');
    fireEvent.click(within(table).getByRole('button', { name: 'VIP' }));
    const filters = await screen.findByRole('region', { name: 'Active filters' });
    expect(within(filters).getByText('Tag: VIP')).toBeTruthy();
    await waitFor(() =>
      expect(listQueries(fetch).at(-1)).toEqual({ page: '1', page_size: '10', tag_ids: '7' }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'London · 3' }));
    expect(screen.getByRole('button', { name: 'London · 3' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Opted out only' }));
    await waitFor(() =>
      expect(listQueries(fetch).at(-1)).toEqual({
        page: '1',
        page_size: '10',
        tag_ids: '7,8',
        opted_out: 'true',
      }),
    );
    expect(within(filters).getByText('Opted out')).toBeTruthy();

    fireEvent.click(within(filters).getByRole('button', { name: 'Remove filter Tag: VIP' }));
    await waitFor(() =>
      expect(listQueries(fetch).at(-1)).toEqual({
        page: '1',
        page_size: '10',
        tag_ids: '8',
        opted_out: 'true',
      }),
    );
    fireEvent.click(within(filters).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(listQueries(fetch).at(-1)).toEqual({ page: '1', page_size: '10' }));
    expect(screen.queryByRole('region', { name: 'Active filters' })).toBeNull();
  });
});

describe('Rename and delete a tag', () => {
  it('renames after saying how many contacts carry the tag', async () => {
    const fetch = server(() => json({ ...vip, name: 'VIP customers' }));
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    fireEvent.click(screen.getByRole('button', { name: 'Rename tag VIP' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename Tag' });
    expect(
      within(dialog).getByText('"VIP" is on 12 contacts; each of them will show the new name.'),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Tag name'), { target: { value: ' ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByText('Tag name is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Tag name'), { target: { value: 'VIP customers' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [put] = writes(fetch);
    expect(`${put?.method} ${put && pathOf(put)}`).toBe('PUT /recipient/tags/7/');
    expect(await bodyOf(put)).toEqual({ name: 'VIP customers' });
  });

  it('deletes only after confirming, naming the contacts it is removed from; Cancel sends nothing', async () => {
    const fetch = server(() => json(vip));
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Person 1');
    fireEvent.click(screen.getByRole('button', { name: 'Delete tag VIP' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Tag' });
    expect(
      within(dialog).getByText(
        'Delete the tag "VIP"? It will be removed from 12 contacts; the contacts stay.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(writes(fetch)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete tag VIP' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Tag' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [del] = writes(fetch);
    expect(`${del?.method} ${del && pathOf(del)}`).toBe('DELETE /recipient/tags/7/');
  });
});
