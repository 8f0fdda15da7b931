import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { DataTable } from './data-table';

/** On phones list tables stack their rows, each cell named after its column. */
describe('stacked table rows', () => {
  it('names each body cell after its column, also for rows drawn after loading', async () => {
    const { rerender } = render(
      <DataTable
        headers={[
          { key: 'name', label: 'Name' },
          { key: 'status', label: 'Status' },
          { key: 'actions', label: <span className="sr-only">Actions</span> },
        ]}
        rows={undefined}
        emptyText="None"
        renderRow={(row: string) => (
          <tr key={row}>
            <td>{row}</td>
            <td>Completed</td>
            <td>
              <button type="button">Cancel {row}</button>
            </td>
          </tr>
        )}
      />,
    );
    rerender(
      <DataTable
        headers={[
          { key: 'name', label: 'Name' },
          { key: 'status', label: 'Status' },
          { key: 'actions', label: <span className="sr-only">Actions</span> },
        ]}
        rows={['Spring sale']}
        emptyText="None"
        renderRow={(row: string) => (
          <tr key={row}>
            <td>{row}</td>
            <td>Completed</td>
            <td>
              <button type="button">Cancel {row}</button>
            </td>
          </tr>
        )}
      />,
    );
    // The MutationObserver labels the new row in a microtask.
    await Promise.resolve();
    const cells = screen.getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Name', 'Status', 'Actions']);
    expect(screen.getByRole('table').className).toContain('max-sm:block');
  });

  it('gives the empty row, which spans every column, no label', () => {
    render(
      <DataTable
        headers={[{ key: 'name', label: 'Name' }]}
        rows={[]}
        emptyText="No contacts yet"
        renderRow={() => null}
      />,
    );
    expect(screen.getByRole('cell').hasAttribute('data-label')).toBe(false);
  });
});
