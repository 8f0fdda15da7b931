import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { listItem, listPage } from '../test/template-fixtures';

const rows = [
  listItem(1, {
    template_name: 'summer_sale',
    status: 'APPROVED',
    components: ['Header (image)', 'Body', 'Footer', 'Buttons (2)'],
  }),
  listItem(2, { template_name: 'order_update', status: 'PENDING', quality_score: null, category: 'UTILITY' }),
  listItem(3, {
    template_name: 'bad_promo',
    status: 'REJECTED',
    rejected_reason: 'INVALID_FORMAT',
    quality_score: { score: 'UNKNOWN', date: null },
  }),
  listItem(4, { template_name: 'offline_draft', status: 'DRAFT', template_id: null, quality_score: null }),
];

function listRequests(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock
    .requests()
    .filter((r) => pathOf(r) === '/meta/templates/' && r.method === 'GET')
    .map((r) => new URL(r.url).searchParams);
}

describe('Templates list', () => {
  it('shows 5 skeleton rows of 9 columns while loading, then the rows with badges, quality and components', async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderRoute('/template', { preloadedState: signedIn });

    const skeleton = await screen.findAllByTestId('skeleton-row');
    expect(skeleton).toHaveLength(5);
    for (const row of skeleton) expect(row.querySelectorAll('td')).toHaveLength(9);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Template Name',
      'Category',
      'Language',
      'Status',
      'Rejected Reason',
      'Last Updated Time',
      'Quality Score',
      'Components',
      'Actions',
    ]);

    await act(async () => answer(json(listPage(rows, 14))));
    const link = await screen.findByRole('link', { name: 'summer_sale' });
    expect(link.getAttribute('href')).toBe('/templates/1');
    expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0);

    const row = (name: string) => screen.getByRole('link', { name }).closest('tr') as HTMLElement;
    expect(within(row('summer_sale')).getByText('APPROVED').className).toMatch(/emerald/);
    expect(within(row('order_update')).getByText('PENDING').className).toMatch(/amber/);
    expect(within(row('bad_promo')).getByText('REJECTED').className).toMatch(/amber/);
    expect(within(row('bad_promo')).getByText('INVALID_FORMAT')).toBeTruthy();
    expect(within(row('bad_promo')).getByText('Unknown')).toBeTruthy();
    expect(within(row('order_update')).getByText('Unknown')).toBeTruthy();
    expect(within(row('summer_sale')).getByText('GREEN')).toBeTruthy();
    expect(within(row('offline_draft')).getByRole('button', { name: 'Submit' })).toBeTruthy();
    expect(within(row('summer_sale')).queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Edit summer_sale' }).getAttribute('href')).toBe('/templates/1');
    // 'Components' says what the template is made of; its edit and delete sit under 'Actions'.
    const cells = (name: string) => [...row(name).querySelectorAll('td')].map((td) => td.textContent);
    expect(cells('summer_sale')[7]).toBe('Header (image) · Body · Footer · Buttons (2)');
    const actionsCell = row('summer_sale').querySelectorAll('td')[8] as HTMLElement;
    expect(within(actionsCell).getByRole('link', { name: 'Edit summer_sale' })).toBeTruthy();
    expect(within(actionsCell).getByRole('button', { name: 'Delete summer_sale' })).toBeTruthy();

    expect(screen.getByText('Showing 4 of 14 templates')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByLabelText('Page 1').textContent).toBe('1');
  });

  it('has the heading, the note, the action buttons and the New Template Message link', async () => {
    stubFetch(() => json(listPage([])));
    renderRoute('/template', { preloadedState: signedIn });
    expect(screen.getByRole('heading', { level: 1, name: 'Your Templates' })).toBeTruthy();
    expect(screen.getByText(/must follow WhatsApp's messaging guidelines/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Watch Tutorial' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh from Meta' })).toBeTruthy();
    // Decision 038: the settings icon is gone (template settings live in Settings › Message Settings).
    expect(screen.queryByRole('button', { name: 'Template settings' })).toBeNull();
    expect(screen.getByRole('link', { name: 'New Template Message' }).getAttribute('href')).toBe(
      '/template/create-template',
    );
    expect(await screen.findByText('No templates yet. Create your first one.')).toBeTruthy();
  });

  it("'Watch Tutorial' opens the templates guide", async () => {
    stubFetch(() => json(listPage([])));
    renderRoute('/template', { preloadedState: signedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Watch Tutorial' }));
    const dialog = screen.getByRole('dialog', { name: 'How templates work' });
    expect(within(dialog).getAllByRole('listitem')[0]?.textContent).toMatch(/New Template Message/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("'Refresh from Meta' posts /meta/templates/sync/, says what changed and reloads the list", async () => {
    const success = vi.spyOn(toast, 'success');
    let synced = false;
    const fetchMock = stubFetch((request) => {
      if (request.method === 'POST') {
        synced = true;
        return json({ checked: 4, updated: 2 });
      }
      return json(
        listPage([listItem(1, { template_name: 'summer_sale', status: synced ? 'APPROVED' : 'PAUSED' })]),
      );
    });
    renderRoute('/template', { preloadedState: signedIn });
    await screen.findByText('PAUSED');
    const button = screen.getByRole('button', { name: 'Refresh from Meta' });
    fireEvent.click(button);
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await screen.findByText('APPROVED');
    expect(success).toHaveBeenCalledWith('2 templates updated from Meta.');
    const post = fetchMock.requests().find((r) => r.method === 'POST')!;
    expect(pathOf(post)).toBe('/meta/templates/sync/');
    expect(listRequests(fetchMock)).toHaveLength(2);
  });

  it("'Refresh from Meta' says so when nothing changed, and toasts the server's message on failure", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const success = vi.spyOn(toast, 'success');
    const error = vi.spyOn(toast, 'error');
    let fail = false;
    stubFetch((request) => {
      if (request.method !== 'POST') return json(listPage([listItem(1)]));
      return fail
        ? json(
            {
              detail: 'The WhatsApp Cloud API could not be reached; try again.',
              message: 'The WhatsApp Cloud API could not be reached; try again.',
            },
            502,
          )
        : json({ checked: 1, updated: 0 });
    });
    renderRoute('/template', { preloadedState: signedIn });
    await screen.findByRole('link', { name: 'template_1' });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh from Meta' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Templates are up to date with Meta.'));
    fail = true;
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Refresh from Meta' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Refresh from Meta' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('The WhatsApp Cloud API could not be reached; try again.'),
    );
  });

  it('says when Meta said the account reached its template limit', async () => {
    stubFetch(() => json({ ...listPage(rows, 4), template_limit_exceeded_at: '2026-11-20T10:00:00.000Z' }));
    renderRoute('/template', { preloadedState: signedIn });
    expect((await screen.findByText(/reached its limit of templates/)).textContent).toBe(
      'Meta said on Nov 20, 2026 that this account has reached its limit of templates: Meta refuses new ones until you delete templates you no longer use.',
    );
  });

  it('hides the footer when the count is 0', async () => {
    stubFetch(() => json(listPage([], 0)));
    renderRoute('/template', { preloadedState: signedIn });
    await screen.findByText('No templates yet. Create your first one.');
    expect(screen.queryByText(/^Showing/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
  });

  it("shows 'Error: {message}' with the server's message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() =>
      json({ detail: 'Template store unavailable', message: 'Template store unavailable' }, 503),
    );
    renderRoute('/template', { preloadedState: signedIn });
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Template store unavailable');
  });

  it('searches on Enter only, and sends the sort chosen in Sorted by, back at page 1', async () => {
    const fetchMock = stubFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return json(listPage([listItem(page)], 25, page));
    });
    renderRoute('/template', { preloadedState: signedIn });
    await screen.findByRole('link', { name: 'template_1' });
    expect(listRequests(fetchMock)[0]?.toString()).toBe('page=1&page_size=10&sort=latest');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'template_2' });
    expect(screen.getByLabelText('Page 2')).toBeTruthy();

    const box = screen.getByRole('searchbox', { name: 'Search templates' });
    fireEvent.change(box, { target: { value: '  promo ' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listRequests(fetchMock).some((p) => p.has('search'))).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(listRequests(fetchMock).at(-1)?.toString()).toBe('page=1&page_size=10&sort=latest&search=promo'),
    );

    const sort = screen.getByRole('combobox', { name: 'Sorted by' });
    expect([...(sort as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Latest', 'Oldest', 'Name']);
    fireEvent.change(sort, { target: { value: 'name' } });
    await waitFor(() =>
      expect(listRequests(fetchMock).at(-1)?.toString()).toBe('page=1&page_size=10&sort=name&search=promo'),
    );
    fireEvent.change(sort, { target: { value: 'oldest' } });
    await waitFor(() => expect(listRequests(fetchMock).at(-1)?.get('sort')).toBe('oldest'));
  });

  it('a new sort from page 2 reads page 1 in that order and shows its rows', async () => {
    const fetchMock = stubFetch((request) => {
      const params = new URL(request.url).searchParams;
      const page = Number(params.get('page'));
      const names = params.get('sort') === 'name' ? ['alpha', 'beta'] : [`latest_${page}`];
      return json(
        listPage(
          names.map((name, i) => listItem(page * 10 + i, { template_name: name })),
          25,
          page,
        ),
      );
    });
    renderRoute('/template', { preloadedState: signedIn });
    await screen.findByRole('link', { name: 'latest_1' });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'latest_2' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Sorted by' }), { target: { value: 'name' } });
    await screen.findByRole('link', { name: 'alpha' });
    expect(listRequests(fetchMock).at(-1)?.toString()).toBe('page=1&page_size=10&sort=name');
    expect(screen.getByLabelText('Page 1')).toBeTruthy();
  });

  it('deletes after the confirmation with {template_id, template_name} and reloads the page', async () => {
    let deleted = false;
    const fetchMock = stubFetch((request) => {
      if (request.method === 'DELETE') {
        deleted = true;
        return json({ message: 'Template deleted' });
      }
      return json(listPage(deleted ? [rows[1]!] : rows.slice(0, 2)));
    });
    renderRoute('/template', { preloadedState: signedIn });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete summer_sale' }));

    const dialog = screen.getByRole('dialog', { name: 'Delete Template' });
    expect(within(dialog).getByText('Are you sure you want to delete the template?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.requests().some((r) => r.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete summer_sale' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deleting...' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const request = fetchMock.requests().find((r) => r.method === 'DELETE')!;
    expect(pathOf(request)).toBe('/meta/templates/');
    expect(await request.json()).toEqual({ template_id: 'meta-1', template_name: 'summer_sale' });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'summer_sale' })).toBeNull());
    expect(listRequests(fetchMock)).toHaveLength(2);
  });

  it("sends a draft's own id as template_id and shows the server's message when deleting fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = stubFetch((request) =>
      request.method === 'DELETE'
        ? json({ detail: 'Template not found', message: 'Template not found' }, 404)
        : json(listPage(rows)),
    );
    renderRoute('/template', { preloadedState: signedIn });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete offline_draft' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe(
      'Template not found',
    );
    const request = fetchMock.requests().find((r) => r.method === 'DELETE')!;
    expect(await request.json()).toEqual({ template_id: '4', template_name: 'offline_draft' });
  });

  it('submits a draft with POST /meta/templates/{id}/submit/ and reloads the list', async () => {
    let submitted = false;
    const fetchMock = stubFetch((request) => {
      if (request.method === 'POST') {
        submitted = true;
        return json(listItem(4, { status: 'PENDING' }));
      }
      return json(
        listPage([listItem(4, { template_name: 'offline_draft', status: submitted ? 'APPROVED' : 'DRAFT' })]),
      );
    });
    renderRoute('/template', { preloadedState: signedIn });
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    await screen.findByText('APPROVED');
    const post = fetchMock.requests().find((r) => r.method === 'POST')!;
    expect(pathOf(post)).toBe('/meta/templates/4/submit/');
  });

  it('toasts the server message when submitting a draft fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    stubFetch((request) =>
      request.method === 'POST'
        ? json({ detail: 'WhatsApp Cloud API: unreachable', message: 'WhatsApp Cloud API: unreachable' }, 502)
        : json(listPage([listItem(4, { status: 'DRAFT' })])),
    );
    renderRoute('/template', { preloadedState: signedIn });
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('WhatsApp Cloud API: unreachable'));
  });

  it('re-reads the page every 3 s while a row is PENDING, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let reads = 0;
      const fetchMock = stubFetch(() => {
        reads += 1;
        return json(
          listPage([
            listItem(1, { template_name: 'summer_sale', status: reads < 3 ? 'PENDING' : 'APPROVED' }),
          ]),
        );
      });
      renderRoute('/template', { preloadedState: signedIn });
      await screen.findByText('PENDING');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3100);
      });
      await waitFor(() => expect(listRequests(fetchMock)).toHaveLength(2));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3100);
      });
      await screen.findByText('APPROVED');
      const settled = listRequests(fetchMock).length;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000);
      });
      expect(listRequests(fetchMock)).toHaveLength(settled);
    } finally {
      vi.useRealTimers();
    }
  });
});
