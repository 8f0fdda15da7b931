import { summariseComponents, type TemplateListItem } from '@herald/contracts';
import type { TemplateRow } from './templates-repo';

/** What the lifecycle webhooks left on the template beside its status (decision 074). */
export function lifecycleOf(row: TemplateRow) {
  return {
    rejection_info:
      row.rejection_detail || row.rejection_recommendation
        ? { reason: row.rejection_detail, recommendation: row.rejection_recommendation }
        : null,
    locked: row.locked,
    flagged_at: row.flagged_at?.toISOString() ?? null,
    pending_category: row.pending_category
      ? { category: row.pending_category, effective_at: row.pending_category_at?.toISOString() ?? null }
      : null,
  };
}

export function toListItem(row: TemplateRow): TemplateListItem {
  return {
    id: row.id,
    template_id: row.meta_template_id,
    template_name: row.name,
    category: row.category,
    language_code: row.language,
    status: row.status,
    rejected_reason: row.rejected_reason,
    last_updated_time: row.updated_at.toISOString(),
    quality_score: row.quality_score
      ? {
          score: row.quality_score,
          date: row.quality_score_date ? Math.floor(row.quality_score_date.getTime() / 1000) : null,
        }
      : null,
    components: summariseComponents(row.components),
    message_send_ttl_seconds: row.message_send_ttl_seconds,
    max_price_bid_amount: row.max_price_bid_amount,
    ...lifecycleOf(row),
  };
}
