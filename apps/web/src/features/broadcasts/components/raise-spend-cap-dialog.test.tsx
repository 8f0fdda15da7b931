import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { spendCapReason, spendCapTooLowMessage } from '@herald/contracts';
import { BroadcastHistoryPage } from '../../../test/lazy-pages';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import { renderRoute } from '../../../test/render-with-store';
import { listPage, row, withAccount } from '../test/broadcast-fixtures';

// Decision 052: Resume of a broadcast its spend cap paused asks for a higher cap, or none, first.
beforeAll(() => Promise.all([BroadcastHistoryPage.preload()]));

const capped = () =>
  row(9, {
    name: 'Capped sale',
    status: 'paused',
    status_reason: spendCapReason(12.49, 12.5),
    spend_cap: 12.5,
  });

function server(answer: (body: { spend_cap?: number | null }) => Response) {
  return stubFetch(async (request) => {
    if (request.method === 'POST' && pathOf(request) === '/broadcast/9/resume/') {
      return answer((await request.clone().json()) as { spend_cap?: number | null });
    }
    return json(listPage([capped()]));
  });
}

const resumeBodies = (fetchMock: ReturnType<typeof stubFetch>) =>
  Promise.all(
    fetchMock
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => r.clone().json()),
  );

describe('Resume of a broadcast paused at its spend cap', () => {
  it('asks for a higher cap, shows the server’s refusal, and resumes with the cap raised', async () => {
    const tooLow = spendCapTooLowMessage(12.52);
    const fetchMock = server((body) =>
      body.spend_cap !== null && (body.spend_cap ?? 0) < 12.52
        ? json({ detail: tooLow, message: tooLow, errors: [{ field: 'spend_cap', message: tooLow }] }, 409)
        : json({ id: 9, status: 'sending' }),
    );
    const success = vi.spyOn(toast, 'success');
    renderRoute('/broadcast', { preloadedState: withAccount });
    expect(await screen.findByText('Spend cap reached: $12.49 of $12.50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume Capped sale' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Raise the spend cap' }));
    expect(dialog.getByText(/paused at its spend cap of \$12\.50/)).toBeTruthy();
    // Nothing is asked of the server until a cap is given.
    fireEvent.click(dialog.getByRole('button', { name: 'Raise and Resume' }));
    expect(dialog.getByText('Enter the new spend cap, or remove the cap')).toBeTruthy();
    expect(fetchMock.requests().filter((r) => r.method === 'POST')).toHaveLength(0);

    const field = dialog.getByRole('textbox', { name: 'New spend cap (USD)' });
    fireEvent.change(field, { target: { value: '12.51' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Raise and Resume' }));
    expect(await dialog.findByText(tooLow)).toBeTruthy();

    fireEvent.change(field, { target: { value: '20' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Raise and Resume' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Broadcast resumed'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await resumeBodies(fetchMock)).toEqual([{ spend_cap: 12.51 }, { spend_cap: 20 }]);
  });

  it('resumes without a cap on “Remove Cap and Resume”, and Keep Paused sends nothing', async () => {
    const fetchMock = server(() => json({ id: 9, status: 'sending' }));
    renderRoute('/broadcast', { preloadedState: withAccount });
    fireEvent.click(await screen.findByRole('button', { name: 'Resume Capped sale' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Raise the spend cap' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Keep Paused' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.requests().filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Resume Capped sale' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Raise the spend cap' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Remove Cap and Resume' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await resumeBodies(fetchMock)).toEqual([{ spend_cap: null }]);
  });
});
