import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ModalDialog } from './modal-dialog';

function renderDialog(busy = false) {
  const onClose = vi.fn();
  render(
    <ModalDialog title="Edit Contact" onClose={onClose} busy={busy}>
      <input aria-label="First" />
      <button type="button">Last</button>
    </ModalDialog>,
  );
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Edit Contact' }) };
}

describe('ModalDialog', () => {
  it('is a labelled modal dialog that focuses its first field', () => {
    const { dialog } = renderDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('First'));
  });

  it('keeps Tab inside: from the last control to the first and back', () => {
    const { dialog } = renderDialog();
    const last = screen.getByRole('button', { name: 'Last' });
    last.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('closes on Escape unless busy', () => {
    const idle = renderDialog();
    fireEvent.keyDown(idle.dialog, { key: 'Escape' });
    expect(idle.onClose).toHaveBeenCalledTimes(1);
  });

  it('ignores Escape while busy', () => {
    const busy = renderDialog(true);
    fireEvent.keyDown(busy.dialog, { key: 'Escape' });
    expect(busy.onClose).not.toHaveBeenCalled();
  });
});

describe('ModalDialog when focus has left it', () => {
  it('still closes on Escape and brings Tab back inside', () => {
    const { onClose } = renderDialog();
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('ModalDialog and the page behind it', () => {
  it('hides the page from assistive technology while open, and restores it on close', () => {
    const onClose = vi.fn();
    const { rerender, container } = render(
      <>
        <button type="button">Behind</button>
        <ModalDialog title="Import Contacts" onClose={onClose}>
          <button type="button">Inside</button>
        </ModalDialog>
      </>,
    );
    expect(screen.queryByRole('button', { name: 'Behind' })).toBeNull();
    expect(container.hasAttribute('inert')).toBe(true);
    rerender(<button type="button">Behind</button>);
    expect(screen.getByRole('button', { name: 'Behind' })).toBeTruthy();
    expect(container.hasAttribute('inert')).toBe(false);
  });
});
