import type { SandboxContext } from '../context';
import { GraphError, invalidParameter, missingParameter } from '../errors';
import { stringParam } from '../request-params';
import { REJECTION_REASONS, TEMPLATE_STATUSES } from './template-store';
import type { RejectionReason, TemplateStatus } from './template-store';
import { changeTemplateStatus } from './template-status-change';

/** `POST /__sandbox/templates/{id}/review` `{status, reason?}`: a verdict now, instead of the timer's. */
export function forceReview(ctx: SandboxContext, templateId: string, params: Record<string, unknown>) {
  const template = ctx.state.templates.find(templateId);
  if (!template) throw new GraphError(404, 100, `(#100) No message template with id ${templateId}`);
  const status = stringParam(params, 'status');
  if (status === undefined) throw missingParameter('status');
  if (!TEMPLATE_STATUSES.includes(status as TemplateStatus)) {
    throw invalidParameter(`status must be one of ${TEMPLATE_STATUSES.join(', ')}`);
  }
  const reason = stringParam(params, 'reason');
  if (reason !== undefined && !REJECTION_REASONS.includes(reason as RejectionReason)) {
    throw invalidParameter(`reason must be one of ${REJECTION_REASONS.join(', ')}`);
  }
  ctx.reviews.cancel(template.id);
  changeTemplateStatus(
    ctx,
    template,
    status as TemplateStatus,
    (reason as RejectionReason | undefined) ?? null,
  );
  return { id: template.id, status: template.status, rejected_reason: template.rejectedReason };
}
