import { describe, expect, it } from 'vitest';
import { summariseComponents } from './component-summary';

describe('summariseComponents', () => {
  it("says each component in Meta's order, with a header's format and the number of buttons", () => {
    expect(
      summariseComponents([
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['h'] } },
        { type: 'BODY', text: 'Hi {{1}}' },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        { type: 'BUTTONS', buttons: [{ type: 'URL' }, { type: 'QUICK_REPLY' }] },
      ]),
    ).toEqual(['Header (image)', 'Body', 'Footer', 'Buttons (2)']);
  });

  it('names a type it does not know by its own name, and skips what is not a component', () => {
    expect(
      summariseComponents([
        { type: 'body', text: 'x' },
        { type: 'LIMITED_TIME_OFFER' },
        { type: 'CAROUSEL', cards: [{}, {}, {}] },
        null,
        { text: 'no type' },
      ]),
    ).toEqual(['Body', 'Limited time offer', 'Carousel (3)']);
  });
});
