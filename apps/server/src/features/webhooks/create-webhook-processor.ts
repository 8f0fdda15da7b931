import type { Pool } from '../../db/pool';
import { applyAccountUpdate } from '../account-health/index';
import { applyMessageStatuses, collectTemplatePause } from '../broadcasts/index';
import { applyOptOuts } from '../contacts/index';
import { storeInboundMessages } from '../replies/index';
import { applyCapabilityUpdate, applyPhoneQualityUpdate } from '../numbers/index';
import {
  applyTemplateCategoryUpdate,
  applyTemplateQualityUpdate,
  applyTemplateStatusUpdate,
} from '../templates/index';
import { WebhookProcessor } from './webhook-processor';

/**
 * The processor with every feature's handler, so the API server (which drains right after storing) and the
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
  processor.on('messages', applyMessageStatuses);
  processor.on('messages', applyOptOuts);
  // Every customer message is kept and linked to the broadcast message it answers.
  processor.on('messages', storeInboundMessages);
  processor.on('business_capability_update', applyCapabilityUpdate);
  processor.on('phone_number_quality_update', applyPhoneQualityUpdate);
  processor.on('account_update', applyAccountUpdate);
  return processor;
}
