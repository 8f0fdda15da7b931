import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { FormButton } from '../template-form-state';
import { ButtonsSection } from './buttons-section';

function Harness() {
  const [buttons, setButtons] = useState<FormButton[]>([]);
  return <ButtonsSection buttons={buttons} onChange={setButtons} errorFor={() => undefined} />;
}

describe('Interactive Buttons: example text per kind of button', () => {
  it("a phone button's text reads 'e.g. Call us' and its number an example number; a link's 'e.g. Visit website'", () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Phone Number' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add Quick Reply' }));

    const texts = screen.getAllByLabelText('Button Text') as HTMLInputElement[];
    expect(texts.map((input) => input.placeholder)).toEqual([
      'e.g. Call us',
      'e.g. Visit website',
      'e.g. Yes, please',
    ]);
    expect((screen.getByLabelText('Phone Number') as HTMLInputElement).placeholder).toBe('+14155550123');
    expect(screen.queryAllByPlaceholderText('e.g. Visit website')).toHaveLength(1);
    expect(within(document.body).queryByText('No buttons added.')).toBeNull();
  });
});

describe('Interactive Buttons: a tracked link', () => {
  function Tracked({ url }: { url: string | null }) {
    const [buttons, setButtons] = useState<FormButton[]>([]);
    return (
      <ButtonsSection
        buttons={buttons}
        onChange={setButtons}
        errorFor={() => undefined}
        trackedButtonUrl={url}
      />
    );
  }

  it('is offered by a URL button only, and only when the tracked URL is known', () => {
    const { unmount } = render(<Tracked url="https://herald.example.com/l/{{1}}" />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Quick Reply' }));
    expect(screen.queryByRole('button', { name: 'Use a tracked link' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use a tracked link' }));
    expect((screen.getByLabelText('Website URL') as HTMLInputElement).value).toBe(
      'https://herald.example.com/l/{{1}}',
    );
    expect((screen.getByLabelText('Example Values') as HTMLInputElement).value).toBe('abc123');
    unmount();
    render(<Tracked url={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add URL' }));
    expect(screen.queryByRole('button', { name: 'Use a tracked link' })).toBeNull();
  });
});
