import type { SandboxContext } from '../context';
import { templateStatusPayload } from '../webhooks/template-status-payload';
import type { StatusNotice } from '../webhooks/template-status-payload';
import { webhookTarget } from '../webhooks/webhook-target';
import type { MessageTemplate, RejectionReason, TemplateStatus } from './template-store';

/** Every status change goes the same way: state first, then Meta's signed notification. */
export function changeTemplateStatus(
  ctx: SandboxContext,
  template: MessageTemplate,
  status: TemplateStatus,
  reason: RejectionReason | null,
  notice: StatusNotice = {},
): void {
  ctx.state.templates.setStatus(template, status, reason);
  ctx.webhooks.send(
    webhookTarget(ctx, template.wabaId),
    templateStatusPayload(template, new Date(), notice),
    {
      field: 'message_template_status_update',
      wabaId: template.wabaId,
    },
  );
}
