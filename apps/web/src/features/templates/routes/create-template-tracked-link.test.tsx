import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';

const LINKS = {
  tracked_link_prefix: 'http://localhost:3000/l/',
  tracked_button_url: 'http://localhost:3000/l/{{1}}',
};
const HINT =
  'Herald counts who clicks: each recipient gets their own link, and the broadcast says where it leads.';

/** The create form's calls; GET /broadcast/links/ answers `links`, or 404 (a server before tracked links). */
function server(links: unknown | null) {
  return stubFetch((request) => {
    const path = pathOf(request);
    if (path === '/recipient/cols') return json(['name', 'email']);
    if (path === '/broadcast/links/')
      return links === null ? json({ detail: 'Not found' }, 404) : json(links);
    return json({ count: 0, currentPage: 1, next: null, previous: null, results: [] });
  });
}

const value = (element: HTMLElement) => (element as HTMLInputElement).value;

/** Once the form has asked for the link settings, lets the answer reach the screen. */
async function linksAnswered(fetchMock: ReturnType<typeof stubFetch>) {
  await waitFor(() => expect(fetchMock.requests().some((r) => pathOf(r) === '/broadcast/links/')).toBe(true));
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
}

describe('Create template: a tracked link button', () => {
  it('fills the URL with Herald’s tracked link, a dynamic URL with an example, and says what it does', async () => {
    server(LINKS);
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    const button = within(screen.getByRole('group', { name: 'Button 1' }));
    const use = await button.findByRole('button', { name: 'Use a tracked link' });
    expect(button.getByText(HINT)).toBeTruthy();
    expect(use.getAttribute('aria-describedby')).toBe(button.getByText(HINT).id);
    fireEvent.change(button.getByLabelText('Website URL'), { target: { value: 'https://shop.example.com' } });
    fireEvent.click(use);
    expect(value(button.getByLabelText('Website URL'))).toBe('http://localhost:3000/l/{{1}}');
    expect((button.getByRole('checkbox', { name: 'Dynamic URL' }) as HTMLInputElement).checked).toBe(true);
    expect(value(button.getByLabelText('Example Values'))).toBe('abc123');
    // Once the URL is the tracked link there is nothing left to do; the line stays.
    expect(button.queryByRole('button', { name: 'Use a tracked link' })).toBeNull();
    expect(button.getByText(HINT)).toBeTruthy();
    fireEvent.change(button.getByLabelText('Button Text'), { target: { value: 'Shop now' } });
    const payload = JSON.parse(screen.getByLabelText('Template payload JSON').textContent ?? '') as {
      components: unknown[];
    };
    expect(payload.components).toContainEqual({
      type: 'BUTTONS',
      buttons: [{ type: 'URL', text: 'Shop now', url: 'http://localhost:3000/l/{{1}}', example: ['abc123'] }],
    });
  });

  it('offers no tracked link when the server does not say what one holds', async () => {
    const fetchMock = server(null);
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    await linksAnswered(fetchMock);
    expect(screen.queryByRole('button', { name: 'Use a tracked link' })).toBeNull();
    expect(screen.queryByText(HINT)).toBeNull();
  });

  it('offers none for an answer that is not link settings', async () => {
    const fetchMock = server({ count: 0, results: [] });
    renderRoute('/template/create-template', { preloadedState: signedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    await linksAnswered(fetchMock);
    expect(screen.queryByRole('button', { name: 'Use a tracked link' })).toBeNull();
  });
});
