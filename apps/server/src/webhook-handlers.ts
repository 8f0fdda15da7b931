import type { Pool } from './db/pool';
import {
  applyAccountAlert,
  applyAccountReview,
  applyAccountUpdate,
  applyWebhookErrors,
} from './features/account-health/index';
import { applyMessageStatuses, collectCategoryHold, collectTemplatePause } from './features/broadcasts/index';
import { applyOptOuts, applyUserPreferences } from './features/contacts/index';
import { applyLinkClicks } from './features/link-clicks/index';
import { applyMmApiTermsSigned } from './features/marketing-messages/index';
import { storeInboundMessages } from './features/replies/index';
import {
  applyCapabilityUpdate,
  applyPhoneNameUpdate,
  applyPhoneQualityUpdate,
  applySecurityEvent,
} from './features/numbers/index';
import {
  applyTemplateCategoryUpdate,
  applyTemplateComponentsUpdate,
  applyTemplateQualityUpdate,
  applyTemplateStatusUpdate,
} from './features/templates/index';
import { WebhookProcessor } from './features/webhooks/index';

/**
 * The processor with every feature's handler: the one place that knows both the webhook processor and the
 * features, so webhooks/ imports none of them. Built here so the API server (which drains right after storing) and the
 * worker (which sweeps up anything a crash left pending) apply events the same way.
 */
export function createWebhookProcessor(
  pool: Pool,
  log?: { error: (details: object, message: string) => void },
): WebhookProcessor {
  const processor = new WebhookProcessor(pool, log);
  processor.on('message_template_status_update', applyTemplateStatusUpdate);
  // After the template's own status: a PAUSED or DISABLED template pauses its broadcasts (decision 029).
  processor.on('message_template_status_update', collectTemplatePause);
  processor.on('message_template_quality_update', applyTemplateQualityUpdate);
  processor.on('template_category_update', applyTemplateCategoryUpdate);
  // A change announced for a template holds its broadcasts that would still be sending then.
  processor.on('template_category_update', collectCategoryHold);
  processor.on('message_template_components_update', applyTemplateComponentsUpdate);
  processor.on('messages', applyMessageStatuses);
  processor.on('messages', applyOptOuts);
  // Every customer message is kept and linked to the broadcast message it answers.
  processor.on('messages', storeInboundMessages);
  // Meta's click webhook (Marketing Messages API): which part of a message a tracked-link click came from.
  processor.on('messages', applyLinkClicks);
  processor.on('user_preferences', applyUserPreferences);
  processor.on('business_capability_update', applyCapabilityUpdate);
  processor.on('phone_number_quality_update', applyPhoneQualityUpdate);
  processor.on('phone_number_name_update', applyPhoneNameUpdate);
  processor.on('account_update', applyAccountUpdate);
  processor.on('account_update', applyMmApiTermsSigned);
  processor.on('account_review_update', applyAccountReview);
  processor.on('account_alerts', applyAccountAlert);
  processor.on('security', applySecurityEvent);
  // A messages change with only errors: Meta could not process something for the account.
  processor.on('messages', applyWebhookErrors);
  return processor;
}
