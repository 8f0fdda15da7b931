import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { WatchTutorialButton } from './watch-tutorial-button';

describe('WatchTutorialButton', () => {
  it("opens the templates guide as a labelled dialog of steps, closed by 'Got it' with focus back on the button", () => {
    render(<WatchTutorialButton guide="templates" />);
    const button = screen.getByRole('button', { name: 'Watch Tutorial' });
    button.focus();
    fireEvent.click(button);

    const dialog = screen.getByRole('dialog', { name: 'How templates work' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const steps = within(dialog).getAllByRole('listitem');
    expect(steps.length).toBeGreaterThanOrEqual(4);
    expect(steps[0]?.textContent).toMatch(/^Press 'New Template Message'/);
    expect(within(dialog).getByText(/Require Approval for New Templates/)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('opens the broadcasts guide, and Escape closes it', () => {
    render(<WatchTutorialButton guide="broadcasts" />);
    fireEvent.click(screen.getByRole('button', { name: 'Watch Tutorial' }));
    const dialog = screen.getByRole('dialog', { name: 'How broadcasts work' });
    expect(within(dialog).getAllByRole('listitem')[0]?.textContent).toMatch(/^Press 'New Broadcast'/);
    expect(within(dialog).getByText(/Schedule Broadcast/)).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
