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
});
