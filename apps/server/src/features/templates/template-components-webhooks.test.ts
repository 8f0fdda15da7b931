import { describe, expect, it } from 'vitest';
import { componentsAfterEdit } from './template-components-webhooks';

const stored = [
  { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Ann'] } },
  { type: 'BODY', text: 'Order {{1}} ships {{2}}', example: { body_text: [['A-1', 'today']] } },
  { type: 'FOOTER', text: 'Thanks' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Stop promotions' },
      { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}', example: ['A-1'] },
      { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100' },
    ],
  },
];

describe('componentsAfterEdit', () => {
  it("takes Meta's texts, keeping an example only while its variables are the same", () => {
    const next = componentsAfterEdit(stored, {
      message_template_element: 'Order {{1}} ships soon',
      message_template_title: 'Hello {{1}}',
      message_template_footer: 'Thank you',
      message_template_buttons: [
        {
          message_template_button_type: 'URL',
          message_template_button_text: 'Track it',
          message_template_button_url: 'https://shop.example/track/{{1}}',
        },
        {
          message_template_button_type: 'PHONE_NUMBER',
          message_template_button_text: 'Call',
          message_template_button_phone_number: '+15550199',
        },
      ],
    });
    expect(next).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ann'] } },
      { type: 'BODY', text: 'Order {{1}} ships soon' },
      { type: 'FOOTER', text: 'Thank you' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Stop promotions' },
          { type: 'URL', text: 'Track it', url: 'https://shop.example/track/{{1}}', example: ['A-1'] },
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550199' },
        ],
      },
    ]);
  });

  it('drops a text header, footer and URL or phone button Meta no longer lists; keeps a media header and quick replies', () => {
    const withImage = [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['h'] } },
      ...stored.slice(1),
    ];
    expect(componentsAfterEdit(withImage, { message_template_element: 'Just a body' })).toEqual([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['h'] } },
      { type: 'BODY', text: 'Just a body' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop promotions' }] },
    ]);
    expect(componentsAfterEdit(stored, { message_template_element: 'Only this' })).toEqual([
      { type: 'BODY', text: 'Only this' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop promotions' }] },
    ]);
  });
});
