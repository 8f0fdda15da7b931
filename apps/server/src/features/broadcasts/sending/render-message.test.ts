import { describe, expect, it } from 'vitest';
import { renderMessage, type SendableTemplate } from './render-message';

const template: SendableTemplate = {
  name: 'order_ready',
  language: 'en_US',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships to {{3}}.' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Stop' },
        { type: 'URL', text: 'Track', url: 'https://x.test/{{1}}', example: ['abc'] },
      ],
    },
  ],
  staticVariables: { header_variable: [{ '1': 'friend' }], body_variable: [{ '2': 'A-100' }] },
  dynamicVariables: { body_variable: { '1': 'name', '3': 'city' } },
};

describe('renderMessage', () => {
  it('fills dynamic variables from the contact and static ones from the template', () => {
    expect(renderMessage(template, { name: 'Ada', city: 'London' })).toEqual({
      ok: true,
      components: [
        { type: 'header', parameters: [{ type: 'text', text: 'friend' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ada' },
            { type: 'text', text: 'A-100' },
            { type: 'text', text: 'London' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'abc' }] },
      ],
    });
  });

  it('refuses to send a blank: a missing contact value is a clear reason', () => {
    expect(renderMessage(template, { name: 'Ada', city: '  ' })).toEqual({
      ok: false,
      reason: 'The contact has no city for {{3}}',
    });
  });

  it('sends no components for a template without variables', () => {
    expect(renderMessage({ ...template, components: [{ type: 'BODY', text: 'Plain.' }] }, {})).toEqual({
      ok: true,
      components: [],
    });
  });

  it('names a media header by its uploaded id (else its link), and refuses one with neither', () => {
    const picture: SendableTemplate = {
      name: 'picture',
      language: 'en_US',
      components: [
        { type: 'HEADER', format: 'DOCUMENT' },
        { type: 'BODY', text: 'Your invoice.' },
      ],
      staticVariables: {},
      dynamicVariables: {},
    };
    expect(renderMessage({ ...picture, mediaId: '555', mediaLink: 'https://x.test/a.pdf' }, {})).toEqual({
      ok: true,
      components: [{ type: 'header', parameters: [{ type: 'document', document: { id: '555' } }] }],
    });
    expect(renderMessage({ ...picture, mediaLink: 'https://x.test/a.pdf' }, {})).toMatchObject({
      ok: true,
      components: [{ type: 'header', parameters: [{ document: { link: 'https://x.test/a.pdf' } }] }],
    });
    expect(renderMessage(picture, {})).toEqual({
      ok: false,
      reason: 'The template’s header media is missing: edit the template',
    });
  });

  describe('values Meta refuses', () => {
    const greeting: SendableTemplate = {
      name: 'greeting',
      language: 'en_US',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'For {{1}}', example: { header_text: ['Ana'] } },
        {
          type: 'BODY',
          text: 'Hi {{1}}, we deliver to {{2}} today.',
          example: { body_text: [['Ana', '1 Main\nStreet']] },
        },
      ],
      staticVariables: {},
      dynamicVariables: { header_variable: { '1': 'name' }, body_variable: { '1': 'name', '2': 'address' } },
    };
    const bodyOf = (result: ReturnType<typeof renderMessage>) =>
      result.ok ? result.components.find((c) => c.type === 'body')?.parameters : result.reason;

    it('flattens a contact value with line breaks, tabs and runs of spaces to one line', () => {
      const result = renderMessage(greeting, {
        name: '\u200BAda\tLovelace ',
        address: '12 High St\r\nFlat 3\n\n     London\u00A0E1',
      });
      expect(bodyOf(result)).toEqual([
        { type: 'text', text: 'Ada Lovelace' },
        { type: 'text', text: '12 High St Flat 3 London E1' },
      ]);
      for (const parameter of JSON.stringify(result).match(/"text":"[^"]*"/g) ?? []) {
        expect(parameter).not.toMatch(/\\n|\\t| {5}/);
      }
    });

    it('uses the template’s sample, flattened, for a value with nothing left to send', () => {
      const result = renderMessage(greeting, { name: 'Ada', address: ' \n\t\u200B ' });
      expect(bodyOf(result)).toEqual([
        { type: 'text', text: 'Ada' },
        { type: 'text', text: '1 Main Street' },
      ]);
      expect(renderMessage(greeting, { name: '\n', address: 'x' })).toMatchObject({
        ok: true,
        components: [{ type: 'header', parameters: [{ type: 'text', text: 'Ana' }] }, { type: 'body' }],
      });
    });

    it('reports the recipient, never a blank, when there is no sample either', () => {
      const noSamples: SendableTemplate = {
        ...greeting,
        components: [{ type: 'BODY', text: 'Hi {{1}}, we deliver to {{2}} today.' }],
      };
      expect(renderMessage(noSamples, { name: 'Ada', address: '\r\n\u2028' })).toEqual({
        ok: false,
        reason: 'The contact has no address for {{2}}',
      });
      expect(
        renderMessage(
          { ...noSamples, dynamicVariables: {}, staticVariables: { body_variable: [{ '1': '\t' }] } },
          {},
        ),
      ).toEqual({ ok: false, reason: 'No value for {{1}}' });
    });

    it('flattens static values and numbers too', () => {
      const result = renderMessage(
        {
          ...greeting,
          staticVariables: { body_variable: [{ '2': 'the\nstation' }] },
          dynamicVariables: { body_variable: { '1': 'age' } },
        },
        { age: 42 },
      );
      expect(bodyOf(result)).toEqual([
        { type: 'text', text: '42' },
        { type: 'text', text: 'the station' },
      ]);
    });
  });
});
