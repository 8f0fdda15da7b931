import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { ModalDialog } from './modal-dialog';

function DeletingRow() {
  const [open, setOpen] = useState(false);
  const [gone, setGone] = useState(false);
  return (
    <main>
      <h1>Customers</h1>
      {gone ? null : (
        <button type="button" onClick={() => setOpen(true)}>
          Delete Ada
        </button>
      )}
      {open ? (
        <ModalDialog title="Delete Contact" onClose={() => setOpen(false)}>
          <button
            type="button"
            onClick={() => {
              setGone(true);
              setOpen(false);
            }}
          >
            Delete
          </button>
        </ModalDialog>
      ) : null}
    </main>
  );
}

describe('focus after a dialog', () => {
  it('returns to the opener when it is still there', () => {
    render(<DeletingRow />);
    const opener = screen.getByRole('button', { name: 'Delete Ada' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Ada' }));
  });

  it('goes to the page heading, not <body>, when the opener is gone', () => {
    render(<DeletingRow />);
    const opener = screen.getByRole('button', { name: 'Delete Ada' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('button', { name: 'Delete Ada' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Customers' }));
  });
});
