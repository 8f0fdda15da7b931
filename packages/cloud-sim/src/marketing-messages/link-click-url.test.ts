import { describe, expect, it } from 'vitest';
import { clickedLink, withClickId } from './link-click-url';

const template = (components: Array<{ type: string } & Record<string, unknown>>) => ({
  name: 'promo',
  components,
});

describe('withClickId', () => {
  it('adds click_id to the query as written, before any fragment', () => {
    expect(withClickId('https://ex.com/a', 'C1')).toBe('https://ex.com/a?click_id=C1');
    expect(withClickId('https://ex.com/a?x=a%20b&y=1', 'C1')).toBe(
      'https://ex.com/a?x=a%20b&y=1&click_id=C1',
    );
    expect(withClickId('https://ex.com/a?', 'C1')).toBe('https://ex.com/a?click_id=C1');
    expect(withClickId('https://ex.com/a?x=1#top', 'C1')).toBe('https://ex.com/a?x=1&click_id=C1#top');
  });
});

describe('clickedLink', () => {
  it('fills a URL button’s {{1}} with the value sent for that button', () => {
    const sale = template([
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://ex.com/l/{{1}}' }] },
    ]);
    expect(clickedLink(sale, { button_0: ['abc'] }, { component: 'cta', button: null })).toBe(
      'https://ex.com/l/abc',
    );
  });

  it('takes the first link of the body as read, without the punctuation closing its sentence', () => {
    const body = template([{ type: 'BODY', text: 'See (https://ex.com/{{1}}), or http://b.example.' }]);
    expect(clickedLink(body, { body: ['p/q'] }, { component: 'body', button: null })).toBe(
      'https://ex.com/p/q',
    );
  });

  it('names the field that points at no link', () => {
    const quick = template([{ type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop' }] }]);
    expect(() => clickedLink(quick, {}, { component: 'cta', button: null })).toThrow(
      /button: .*no URL button/,
    );
    expect(() => clickedLink(quick, {}, { component: 'cta', button: 3 })).toThrow(/at index 3/);
    expect(() => clickedLink(quick, {}, { component: 'body', button: null })).toThrow(/component: /);
  });
});
