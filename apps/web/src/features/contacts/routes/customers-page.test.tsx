import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { CONTACT_BASE_COLUMNS, type Contact } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';
import { stubXhr } from '../../../test/xhr-stub';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

function contact(id: number, overrides: Partial<Contact> = {}): Contact {
  return {
    id,
    recipient_name: `Person ${id}`,
    whatsapp_number: `+1415555${String(1000 + id).padStart(4, '0')}`,
    recipient_age: null,
    recipient_gender: null,
    recipient_address: null,
    recipient_post_code: null,
    recipient_email: null,
    tags: [],
    ...overrides,
  };
}

const ada = contact(1, {
  recipient_name: 'Ada Lovelace',
  whatsapp_number: '+14155550123',
  recipient_age: 36,
  recipient_gender: 'female',
  recipient_address: '12 St James Sq',
  recipient_post_code: 'SW1Y 4JH',
  recipient_email: 'ada@example.com',
  tags: [
    { id: 7, tag_name: 'VIP' },
    { id: 8, tag_name: 'London' },
  ],
});

/**
 * A fake of the contacts API over `contacts`: paged and searched like the server, with absolute next and
 * previous URLs; writes answer `write` when given.
 */
function contactsServer(
  contacts: Contact[],
  write: (request: Request) => Response | Promise<Response> = () => json({}, 201),
) {
  return stubFetch((request) => {
    const url = new URL(request.url);
    if (pathOf(request) === '/recipient/tags/') return json([{ id: 7, name: 'VIP', count: 12 }]);
    // The contact form's columns: the base ones and one custom column an import made.
    if (pathOf(request) === '/recipient/cols') return json([...CONTACT_BASE_COLUMNS, 'loyalty_tier']);
    // The Segment filter's choices: a read, not one of this test's writes.
    if (pathOf(request) === '/segments/') return json({ results: [] });
    // The header's Customers badge: a read, not one of this test's writes.
    if (pathOf(request) === '/dashboard/header')
      return json({ contacts: contacts.length, events: [], unread: 0 });
    if (pathOf(request) === '/recipient/create/' && request.method === 'GET') {
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('page_size'));
      const search = url.searchParams.get('search')?.toLowerCase();
      const matching = search
        ? contacts.filter((c) => c.recipient_name.toLowerCase().includes(search))
        : contacts;
      const at = (p: number) => {
        const next = new URL(url);
        next.searchParams.set('page', String(p));
        return next.href;
      };
      return json({
        count: matching.length,
        next: page * size < matching.length ? at(page + 1) : null,
        previous: page > 1 ? at(page - 1) : null,
        results: matching.slice((page - 1) * size, page * size),
      });
    }
    return write(request);
  });
}

const many = [ada, ...Array.from({ length: 22 }, (_, i) => contact(i + 2))];

function listRequests(fetch: ReturnType<typeof stubFetch>) {
  return fetch
    .requests()
    .filter((r) => pathOf(r) === '/recipient/create/' && r.method === 'GET')
    .map((r) => Object.fromEntries(new URL(r.url).searchParams));
}

async function bodyOf(request: Request | undefined) {
  return request ? ((await request.clone().json()) as unknown) : undefined;
}

describe('Contacts screen', () => {
  it('shows skeleton rows, then the contacts in the spec columns with the paging texts', async () => {
    const fetch = contactsServer(many);
    renderRoute('/customers', { preloadedState: withAccount });

    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['', 'Name', 'Number', 'Age', 'Gender', 'Address', 'Post Code', 'Email', 'Tags', 'Actions']);
    expect(within(table).getByRole('checkbox', { name: 'Select all on this page' })).toBeTruthy();

    const cell = await within(table).findByRole('cell', { name: 'Ada Lovelace' });
    const row = cell.closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(1, 9)
        .map((c) => c.textContent),
    ).toEqual([
      'Ada Lovelace',
      '+1 415 555 0123',
      '36',
      'female',
      '12 St James Sq',
      'SW1Y 4JH',
      'ada@example.com',
      'VIPLondon',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('Showing 1 to 10 of 23 entries')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('VIP · 12')).toBeTruthy();

    const [request] = fetch.requests();
    expect(request?.headers.get('X-WABA-ID')).toBe('111');
    expect(listRequests(fetch)).toEqual([{ page: '1', page_size: '10' }]);
  });

  it('marks a contact who opted out', async () => {
    contactsServer([
      contact(5, { recipient_name: 'Quiet Quinn', opted_out_at: '2026-11-20T10:00:00.000Z' }),
      ada,
    ]);
    renderRoute('/customers', { preloadedState: withAccount });
    const quinn = (await screen.findByText('Quiet Quinn')).closest('tr') as HTMLElement;
    expect(within(quinn).getByText('Opted out').getAttribute('title')).toContain('left out of broadcasts');
    const adaRow = screen.getByText('Ada Lovelace').closest('tr') as HTMLElement;
    expect(within(adaRow).queryByText('Opted out')).toBeNull();
  });

  it('pages with Next and Previous, and disables Next on the last page', async () => {
    const fetch = contactsServer(many);
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Page 1 of 3');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 11 to 20 of 23 entries');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 21 to 23 of 23 entries');
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('Page 2 of 3');
    expect(listRequests(fetch).map((q) => q.page)).toEqual(['1', '2', '3', '2']);
  });

  it('a new page size is requested from page 1', async () => {
    const fetch = contactsServer(many);
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');

    const sizes = screen.getByRole('combobox', { name: 'Page size' });
    expect(
      within(sizes)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '25', '50', '100']);
    fireEvent.change(sizes, { target: { value: '25' } });
    await screen.findByText('Showing 1 to 23 of 23 entries');
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(listRequests(fetch).at(-1)).toEqual({ page: '1', page_size: '25' });
  });

  it('searches after typing pauses, from page 1, with one request for the final text', async () => {
    const fetch = contactsServer(many);
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');

    const search = screen.getByRole('searchbox', { name: 'Search contacts' });
    fireEvent.change(search, { target: { value: 'ad' } });
    fireEvent.change(search, { target: { value: 'ada ' } });
    await screen.findByText('Showing 1 to 1 of 1 entries');
    expect(screen.getByRole('cell', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(listRequests(fetch).slice(2)).toEqual([{ page: '1', page_size: '10', search: 'ada' }]);
  });

  it('says so when nothing matches', async () => {
    contactsServer([]);
    renderRoute('/customers', { preloadedState: withAccount });
    expect(await screen.findByText('No contacts yet. Add one or import a CSV file.')).toBeTruthy();
    expect(screen.getByText('Showing 0 to 0 of 0 entries')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
  });

  it("shows 'Error: {message}' when the list cannot be loaded", async () => {
    stubFetch(() => json({ detail: 'No WhatsApp Business account selected' }, 400));
    renderRoute('/customers', { preloadedState: withAccount });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error: No WhatsApp Business account selected',
    );
  });
});

describe('Add and edit a contact', () => {
  it('posts customer_name and the number in E.164, toasts, closes and reloads the list and tags', async () => {
    const success = vi.spyOn(toast, 'success');
    const added = contact(99, { recipient_name: 'Grace Hopper', whatsapp_number: '+442079460958' });
    const rows = [ada];
    const fetch = contactsServer(rows, () => {
      rows.unshift(added);
      return json(added, 201);
    });
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');

    fireEvent.click(screen.getByRole('button', { name: 'Add New Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Contact' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    expect((within(dialog).getByRole('combobox', { name: 'Country' }) as HTMLSelectElement).value).toBe('US');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Grace Hopper ' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Country' }), { target: { value: 'GB' } });
    fireEvent.change(within(dialog).getByLabelText('WhatsApp Number'), {
      target: { value: '020 7946 0958' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));

    await screen.findByText('Grace Hopper');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(success).toHaveBeenCalledWith('Contact added');
    const post = fetch.requests().find((r) => r.method === 'POST');
    expect(post && pathOf(post)).toBe('/recipient/create/');
    expect(await bodyOf(post)).toEqual({
      customer_name: 'Grace Hopper',
      whatsapp_number: '+442079460958',
      tags: [],
    });
    const paths = fetch.requests().map((r) => `${r.method} ${pathOf(r)}`);
    // Both the list and the tag counts are fetched again after the write.
    expect(paths.filter((p) => p === 'GET /recipient/create/')).toHaveLength(2);
    expect(paths.filter((p) => p === 'GET /recipient/tags/')).toHaveLength(2);
  });

  it('names the empty field and sends nothing while the name or the number is empty', async () => {
    const fetch = contactsServer([ada]);
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');
    fireEvent.click(screen.getByRole('button', { name: 'Add New Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Contact' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    expect(within(dialog).getByText('WhatsApp number is required')).toBeTruthy();
    expect(within(dialog).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Grace' } });
    expect(within(dialog).queryByText('Name is required')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));
    expect(within(dialog).getByText('WhatsApp number is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '   ' } });
    fireEvent.change(within(dialog).getByLabelText('WhatsApp Number'), { target: { value: '4155550123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    expect(within(dialog).queryByText('WhatsApp number is required')).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetch.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it("shows the server's reason under the number on a 409, and keeps the dialog open", async () => {
    contactsServer([ada], () =>
      json(
        {
          detail: 'This number already belongs to Ada Lovelace',
          message: 'This number already belongs to Ada Lovelace',
          errors: [{ field: 'whatsapp_number', message: 'This number already belongs to Ada Lovelace' }],
        },
        409,
      ),
    );
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');
    fireEvent.click(screen.getByRole('button', { name: 'Add New Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Contact' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Ada again' } });
    const number = within(dialog).getByLabelText('WhatsApp Number');
    fireEvent.change(number, { target: { value: '4155550123' } });
    expect((number as HTMLInputElement).value).toBe('(415) 555-0123');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));

    await within(dialog).findByText('This number already belongs to Ada Lovelace');
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(number.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'This number already belongs to Ada Lovelace',
    );
    // Editing the number clears the stale reason.
    fireEvent.change(number, { target: { value: '4155550124' } });
    expect(within(dialog).queryByText('This number already belongs to Ada Lovelace')).toBeNull();
  });

  it('opens from the row prefilled and PUTs with customer_id', async () => {
    const success = vi.spyOn(toast, 'success');
    const rows = [ada];
    const fetch = contactsServer(rows, async (request) => {
      const body = (await request.json()) as { customer_name: string };
      rows[0] = { ...ada, recipient_name: body.customer_name };
      return json(rows[0]);
    });
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');

    fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((within(dialog).getByLabelText('WhatsApp Number') as HTMLInputElement).value).toBe(
      '(415) 555-0123',
    );
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Ada King' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Contact' }));

    await screen.findByRole('cell', { name: 'Ada King' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(success).toHaveBeenCalledWith('Contact updated');
    const put = fetch.requests().find((r) => r.method === 'PUT');
    expect(put && pathOf(put)).toBe('/meta/customer/');
    expect(await bodyOf(put)).toEqual({
      customer_id: 1,
      customer_name: 'Ada King',
      whatsapp_number: '+14155550123',
      tags: ['VIP', 'London'],
    });
  });

  it('edits every other column under More details, custom ones included, and sends only what changed', async () => {
    const rows: Contact[] = [
      {
        ...ada,
        recipient_email: 'ada@example.test',
        recipient_age: 36,
        attributes: { loyalty_tier: 'gold' },
      },
    ];
    let answer: Response | null = json(
      { errors: [{ field: 'email', message: 'email is not a valid e-mail address' }], message: 'Invalid' },
      400,
    );
    const fetch = contactsServer(rows, async () => {
      if (answer) {
        const refused = answer;
        answer = null;
        return refused;
      }
      return json(rows[0]);
    });
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');

    fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    fireEvent.click(within(dialog).getByText('More details'));
    const field = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
    expect(field('Email').value).toBe('ada@example.test');
    expect(field('Age').value).toBe('36');
    expect(((await within(dialog).findByLabelText('loyalty_tier')) as HTMLInputElement).value).toBe('gold');

    // An age that is none is named before anything is sent.
    fireEvent.change(field('Age'), { target: { value: 'old' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Contact' }));
    expect(await within(dialog).findByText('age must be a whole number from 0 to 150')).toBeTruthy();
    expect(fetch.requests().some((r) => r.method === 'PUT')).toBe(false);

    fireEvent.change(field('Age'), { target: { value: '37' } });
    fireEvent.change(field('Email'), { target: { value: 'not-an-address' } });
    fireEvent.change(field('Post Code'), { target: { value: 'NW1 6XE' } });
    fireEvent.change(field('loyalty_tier'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Contact' }));
    // The server's refusal is shown under the field it names.
    expect(await within(dialog).findByText('email is not a valid e-mail address')).toBeTruthy();
    const [put] = fetch.requests().filter((r) => r.method === 'PUT');
    expect(await bodyOf(put)).toEqual({
      customer_id: 1,
      customer_name: 'Ada Lovelace',
      whatsapp_number: '+14155550123',
      tags: ['VIP', 'London'],
      email: 'not-an-address',
      age: 37,
      post_code: 'NW1 6XE',
      attributes: { loyalty_tier: '' },
    });
  });

  it('closes on Escape and on Cancel without sending', async () => {
    const fetch = contactsServer([ada]);
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');
    const opener = screen.getByRole('button', { name: 'Add New Contact' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    fireEvent.click(screen.getByRole('button', { name: 'Edit Ada Lovelace' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetch.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('Delete a contact', () => {
  it('asks with the name, then DELETEs and reloads', async () => {
    const success = vi.spyOn(toast, 'success');
    const rows = [ada, contact(2)];
    const fetch = contactsServer(rows, () => {
      rows.splice(0, 1);
      return new Response(null, { status: 204 });
    });
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');

    fireEvent.click(screen.getByRole('button', { name: 'Delete Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Contact' });
    expect(within(dialog).getByText('Delete Ada Lovelace? This cannot be undone.')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByText('Ada Lovelace')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(success).toHaveBeenCalledWith('Contact deleted');
    const deletion = fetch.requests().find((r) => r.method === 'DELETE');
    expect(deletion && pathOf(deletion)).toBe('/recipient/1/');
  });

  it('Cancel deletes nothing', async () => {
    const fetch = contactsServer([ada]);
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');
    fireEvent.click(screen.getByRole('button', { name: 'Delete Ada Lovelace' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetch.requests().some((r) => r.method === 'DELETE')).toBe(false);
  });
});

describe('Import from the screen', () => {
  it('opens the import dialog and, after a successful import, reloads the list and the tag counts', async () => {
    const fetch = contactsServer([ada]);
    const xhr = stubXhr();
    renderRoute('/customers', { preloadedState: withAccount });
    await screen.findByText('Ada Lovelace');

    fireEvent.click(screen.getByRole('button', { name: 'Import Contacts' }));
    const dialog = screen.getByRole('dialog', { name: 'Import Contacts' });
    const file = new File(['name,number\nAda,+14155550123\n'], 'contacts.csv', { type: 'text/csv' });
    fireEvent.change(within(dialog).getByLabelText('CSV File'), { target: { files: [file] } });
    fireEvent.change(within(dialog).getByLabelText('Tag'), { target: { value: 'VIP' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import Contacts' }));
    await act(async () =>
      xhr.last()?.respond(201, { created: 1, updated: 0, total: 1, duplicates_in_file: 0 }),
    );

    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => {
      const paths = fetch.requests().map((r) => pathOf(r));
      expect(paths.filter((p) => p === '/recipient/create/')).toHaveLength(2);
      expect(paths.filter((p) => p === '/recipient/tags/')).toHaveLength(2);
    });
  });
});
