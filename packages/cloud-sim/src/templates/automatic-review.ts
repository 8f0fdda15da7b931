import type { SandboxContext } from '../context';
import { automaticVerdict } from './review-rule';
import { changeTemplateStatus } from './template-status-change';

/** What a review timer does when it fires: decide by the documented rule, record, notify. */
export function runAutomaticReview(ctx: SandboxContext, templateId: string): void {
  const template = ctx.state.templates.find(templateId);
  if (!template || template.status !== 'PENDING') return;
  const verdict = automaticVerdict(template);
  changeTemplateStatus(ctx, template, verdict.status, verdict.reason);
  ctx.log
    .append({
      method: 'REVIEW',
      path: `/${template.id}`,
      body: {},
      result: { status: template.status, rejected_reason: template.rejectedReason },
    })
    .catch(() => undefined);
}
