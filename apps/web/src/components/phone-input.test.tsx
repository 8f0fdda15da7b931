import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { PhoneInput } from './phone-input';

function renderInput(defaultValue?: string, defaultCountry?: 'DE' | 'US') {
  const onChange = vi.fn();
  render(
    <PhoneInput
      label="WhatsApp Number"
      defaultValue={defaultValue}
      defaultCountry={defaultCountry}
      onChange={onChange}
    />,
  );
  return {
    onChange,
    input: screen.getByLabelText('WhatsApp Number') as HTMLInputElement,
    country: screen.getByRole('combobox', { name: 'Country' }) as HTMLSelectElement,
  };
}

describe('PhoneInput', () => {
  it('starts in the US and formats the national number as it is typed, answering E.164', () => {
    const { input, country, onChange } = renderInput();
    expect(country.value).toBe('US');
    fireEvent.change(input, { target: { value: '4155550123' } });
    expect(input.value).toBe('(415) 555-0123');
    expect(onChange).toHaveBeenLastCalledWith('+14155550123');
    fireEvent.change(input, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('caps the digits at 15 with the country code', () => {
    const { input, onChange } = renderInput();
    fireEvent.change(input, { target: { value: '123456789012345678' } });
    expect(onChange).toHaveBeenLastCalledWith('+12345678901234');
    expect(input.value.replace(/\D/g, '')).toBe('12345678901234');
  });

  it('uses the chosen country’s code and drops its national prefix', () => {
    const { input, country, onChange } = renderInput();
    fireEvent.change(country, { target: { value: 'GB' } });
    fireEvent.change(input, { target: { value: '020 7946 0958' } });
    expect(onChange).toHaveBeenLastCalledWith('+442079460958');
  });

  it('takes the country from a number pasted with +', () => {
    const { input, country, onChange } = renderInput();
    fireEvent.change(input, { target: { value: '+44 20 7946 0958' } });
    expect(country.value).toBe('GB');
    expect(onChange).toHaveBeenLastCalledWith('+442079460958');
  });

  it('starts from an E.164 value split into country and national number', () => {
    const { input, country } = renderInput('+442079460958');
    expect(country.value).toBe('GB');
    expect(input.value).toBe('020 7946 0958');
  });

  it('removes the digit before a formatting character on backspace, not only the character', () => {
    const { input, onChange } = renderInput('+14155550123');
    expect(input.value).toBe('(415) 555-0123');
    // The caret just after ')': the library handles Backspace on keydown, so the ')' cannot come straight back.
    input.setSelectionRange(5, 5);
    fireEvent.keyDown(input, { key: 'Backspace', keyCode: 8 });
    expect(onChange).toHaveBeenLastCalledWith('+1415550123');
    expect(input.value).toBe('(415) 550-123');
  });

  it('keeps a + typed key by key until its country code is complete (keyboard entry)', () => {
    const { input, country, onChange } = renderInput();
    // One change per key, as a keyboard makes them: '+', '+4', then the code is complete.
    let text = '';
    for (const key of '+447911123456') {
      text = `${input.value}${key}`;
      fireEvent.change(input, { target: { value: text } });
    }
    expect(country.value).toBe('GB');
    expect(onChange).toHaveBeenLastCalledWith('+447911123456');
  });

  it('picks United Kingdom for +44 as it is typed, not Guernsey', () => {
    const { input, country } = renderInput();
    fireEvent.change(input, { target: { value: '+44' } });
    expect(country.value).toBe('GB');
    fireEvent.change(input, { target: { value: '+44 7400 123456' } });
    expect(country.value).toBe('GB');
  });

  it('shows every +44 contact as GB (a range filed under Guernsey or Jersey too); a Canadian number keeps its own', () => {
    expect(renderInput('+447400123456').country.value).toBe('GB');
    cleanup();
    expect(renderInput('+4415112340016').country.value).toBe('GB');
    cleanup();
    // libphonenumber files 07911 12… under Guernsey and 01534 under Jersey: both are UK numbers here.
    expect(renderInput('+447911123456').country.value).toBe('GB');
    cleanup();
    expect(renderInput('+441534123456').country.value).toBe('GB');
    cleanup();
    expect(renderInput('+14165550123').country.value).toBe('CA');
  });

  it('shows GB for a stored number in a range libphonenumber files under Guernsey', () => {
    // The library alone would pick GG for 07911 7… (libphonenumber's country for it): the wrapper shows GB.
    const { input, country, onChange } = renderInput('+447911700123');
    expect(country.value).toBe('GB');
    expect(input.value).toBe('07911 700123');
    fireEvent.change(input, { target: { value: '07911 700124' } });
    expect(country.value).toBe('GB');
    expect(onChange).toHaveBeenLastCalledWith('+447911700124');
  });

  it('reads a number written the national way in the default country', () => {
    const { input, country, onChange } = renderInput(undefined, 'DE');
    expect(country.value).toBe('DE');
    fireEvent.change(input, { target: { value: '0151 12340016' } });
    expect(onChange).toHaveBeenLastCalledWith('+4915112340016');
  });
});
