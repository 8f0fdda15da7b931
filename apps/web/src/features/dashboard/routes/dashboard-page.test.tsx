import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderRoute, signedIn } from '../../../test/render-with-store';

describe('dashboard (spec §2)', () => {
  it('shows the placeholder controls, eight metrics, four charts and three activity rows', async () => {
    renderRoute('/dashboard', { preloadedState: signedIn });
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.getByText('Monitor your messaging performance and engagement metrics')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Date range' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Data' })).toBeTruthy();

    const metrics = within(screen.getByRole('list', { name: 'Metrics' })).getAllByRole('listitem');
    expect(metrics.map((metric) => metric.querySelector('p')?.textContent)).toEqual([
      'Total Messages',
      'Delivery Rate',
      'Read Rate',
      'Response Rate',
      'Avg. Response Time',
      'Failed Messages',
      'Engagement Rate',
      'Active Contacts',
    ]);
    for (const title of ['Message Overview', 'Message Types', 'Engagement Rate', 'Response Time']) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeTruthy();
    }
    const table = within(
      screen.getByRole('heading', { name: 'Recent Activity' }).parentElement as HTMLElement,
    );
    expect(table.getAllByRole('row')).toHaveLength(4);
  });
});
