import { describe, expect, it } from 'vitest';
import type { MessageTemplate } from '../templates/template-store';
import { templateStatusPayload } from './template-status-payload';

const template = (status: MessageTemplate['status'], rejectedReason: MessageTemplate['rejectedReason']) =>
  ({
    id: '594425479261596',
    wabaId: '102290129340398',
    name: 'summer_sale',
    language: 'en_US',
    category: 'MARKETING',
    status,
    rejectedReason,
  }) as MessageTemplate;

describe('templateStatusPayload', () => {
  it("has Meta's shape, with the template id as a number", () => {
    expect(
      templateStatusPayload(template('REJECTED', 'INVALID_FORMAT'), new Date(1_750_000_000_500)),
    ).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          time: 1_750_000_000,
          changes: [
            {
              value: {
                event: 'REJECTED',
                message_template_id: 594425479261596,
                message_template_name: 'summer_sale',
                message_template_language: 'en_US',
                message_template_category: 'MARKETING',
                reason: 'INVALID_FORMAT',
              },
              field: 'message_template_status_update',
            },
          ],
        },
      ],
    });
  });

  it('sends reason null for anything but a rejection', () => {
    const value = templateStatusPayload(template('APPROVED', 'NONE')).entry[0]?.changes[0]?.value;
    expect(value).toMatchObject({ event: 'APPROVED', reason: null });
  });
});
