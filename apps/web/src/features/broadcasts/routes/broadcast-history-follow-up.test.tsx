import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderRoute } from '../../../test/render-with-store';
import { json, stubFetch } from '../../../test/fetch-stub';
import { listPage, row, withAccount } from '../test/broadcast-fixtures';
import { BroadcastHistoryPage } from '../../../test/lazy-pages';

const rowOf = (name: string) => within(screen.getByRole('link', { name }).closest('tr') as HTMLElement);

beforeAll(() => BroadcastHistoryPage.preload());

describe('Broadcast history: follow-ups', () => {
  it('names the broadcast a follow-up follows up, with a link to its report, and whom it goes to', async () => {
    stubFetch(() =>
      json(
        listPage([
          row(9, {
            name: 'Spring Sale (follow-up)',
            status: 'scheduled',
            follow_up_of: { id: 7, name: 'Spring Sale', unless: 'replied', after_hours: 24 },
          }),
          row(7, { name: 'Spring Sale', follow_up_of: null }),
          // From a server before follow-ups: no follow_up_of at all.
          row(5, { name: 'Winter Sale' }),
        ]),
      ),
    );
    renderRoute('/broadcast', { preloadedState: withAccount });
    await screen.findByText('Winter Sale');

    const line = rowOf('Spring Sale (follow-up)').getByTestId('follow-up-of');
    expect(line.textContent).toBe('Follow-up of Spring Sale · to those who did not reply');
    expect(within(line).getByRole('link', { name: 'Spring Sale' }).getAttribute('href')).toBe('/broadcast/7');
    // The follow-up's own name still leads to its own report.
    expect(screen.getByRole('link', { name: 'Spring Sale (follow-up)' }).getAttribute('href')).toBe(
      '/broadcast/9',
    );

    expect(screen.getAllByTestId('follow-up-of')).toHaveLength(1);
    expect(rowOf('Winter Sale').queryByTestId('follow-up-of')).toBeNull();
  });
});
