import type { SandboxContext } from '../context';
import { GraphError, invalidParameter, missingParameter } from '../errors';
import { stringParam } from '../request-params';
import type { StatusNotice } from '../webhooks/template-status-payload';
import { changeTemplateStatus } from './template-status-change';

const PAUSE_TITLES = ['FIRST_PAUSE', 'SECOND_PAUSE', 'RATE_LIMITING_PAUSE'] as const;

/** Meta's words for each transition (other_info.description), unless the test gives its own. */
const DESCRIPTIONS = {
  FIRST_PAUSE:
    'Your WhatsApp message template has been paused for 3 hours because it had issues. It will be automatically unpaused afterwards.',
  SECOND_PAUSE:
    'Your WhatsApp message template has been paused for 6 hours because it continued to have issues. It will be automatically unpaused afterwards.',
  RATE_LIMITING_PAUSE: 'Your WhatsApp message template has been paused because of its sending rate.',
  DISABLED:
    'Your WhatsApp message template has been disabled because it continued to have issues after being paused twice.',
  UNPAUSE: 'Your WhatsApp message template has been unpaused.',
  REINSTATED: 'Your WhatsApp message template has been reinstated and can be sent again.',
};

/**
 * `POST /__sandbox/templates/{id}/status` `{status: PAUSED|DISABLED|APPROVED, title?, description?}` (`reason`
 * is taken as the description): what Meta's quality system does mid-broadcast. PAUSED and DISABLED apply to an
 * APPROVED or PAUSED template; APPROVED ends a pause (event APPROVED, title UNPAUSE) or a disable (event
 * REINSTATED). Sends of a paused template answer 132015, of a disabled one 132016.
 */
export function setQualityStatus(ctx: SandboxContext, templateId: string, params: Record<string, unknown>) {
  const template = ctx.state.templates.find(templateId);
  if (!template) throw new GraphError(404, 100, `(#100) No message template with id ${templateId}`);
  const status = stringParam(params, 'status');
  if (status === undefined) throw missingParameter('status');
  if (status !== 'PAUSED' && status !== 'DISABLED' && status !== 'APPROVED') {
    throw invalidParameter('status must be PAUSED, DISABLED or APPROVED (other statuses: /review)');
  }
  const title = stringParam(params, 'title');
  if (status === 'PAUSED' && title !== undefined && !PAUSE_TITLES.includes(title as never)) {
    throw invalidParameter(`title must be one of ${PAUSE_TITLES.join(', ')}`);
  }
  const given = stringParam(params, 'description') ?? stringParam(params, 'reason');
  const from = template.status;
  let notice: StatusNotice;
  if (status === 'APPROVED') {
    if (from !== 'PAUSED' && from !== 'DISABLED') {
      throw invalidParameter(
        `status: only a PAUSED or DISABLED template can be made APPROVED here, not ${from}`,
      );
    }
    notice =
      from === 'PAUSED'
        ? { otherInfo: { title: 'UNPAUSE', description: given ?? DESCRIPTIONS.UNPAUSE } }
        : {
            event: 'REINSTATED',
            otherInfo: { title: 'REINSTATED', description: given ?? DESCRIPTIONS.REINSTATED },
          };
  } else {
    if (from !== 'APPROVED' && from !== 'PAUSED') {
      throw invalidParameter(
        `status: only an APPROVED or PAUSED template can be made ${status}, not ${from}`,
      );
    }
    const noticeTitle =
      status === 'DISABLED' ? 'DISABLED' : ((title as (typeof PAUSE_TITLES)[number]) ?? 'FIRST_PAUSE');
    notice = { otherInfo: { title: noticeTitle, description: given ?? DESCRIPTIONS[noticeTitle] } };
  }
  ctx.reviews.cancel(template.id);
  changeTemplateStatus(ctx, template, status, null, notice);
  return {
    id: template.id,
    status: template.status,
    event: notice.event ?? status,
    other_info: notice.otherInfo,
  };
}
