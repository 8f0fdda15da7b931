import type { MessageTemplate } from '../templates/template-store';

/** Meta's `message_template_status_update` notification for one template's new status. */
export function templateStatusPayload(template: MessageTemplate, now = new Date()) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: template.wabaId,
        time: Math.floor(now.getTime() / 1000),
        changes: [
          {
            value: {
              event: template.status,
              // Meta sends this id as a JSON number; 15-digit ids are exact in a double.
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              reason: template.status === 'REJECTED' ? template.rejectedReason : null,
            },
            field: 'message_template_status_update',
          },
        ],
      },
    ],
  };
}
