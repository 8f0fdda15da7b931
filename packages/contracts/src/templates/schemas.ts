import { z } from 'zod';
import { PageNumberSchema } from '../paging';
import { BUTTON_TYPES, HEADER_FORMATS, TEMPLATE_CATEGORIES, TEMPLATE_SORTS } from './constants';
import { TEMPLATE_LANGUAGE_CODES } from './languages';

/**
 * The JSON shapes of the template calls. These describe the shape only: the
 * rules and their exact messages are `validateTemplatePayload`, which the server runs first (it never throws
 * and names each field), before parsing with `TemplatePayloadSchema` for the types.
 */

/** Variable values or columns keyed by position: `{"1": "x"}` or the spec's list form `[{"1": "x"}, {"2": "y"}]`. */
export const VariableMapSchema = z.union([
  z.record(z.string(), z.string()),
  z.array(z.record(z.string(), z.string())),
]);

export const HeaderComponentSchema = z.object({
  type: z.literal('HEADER'),
  format: z.enum(HEADER_FORMATS),
  text: z.string().optional(),
  example: z
    .object({
      header_text: z.array(z.string()).optional(),
      /** The resumable upload's handle (set by the server); the spec also allows a bare handle or null. */
      header_handle: z.union([z.array(z.string()), z.string(), z.null()]).optional(),
      filename: z.string().optional(),
      caption: z.string().optional(),
      /** The form's location header inputs ('Location Name', 'Address'); Herald's, not sent to Meta. */
      location: z.object({ name: z.string(), address: z.string() }).optional(),
    })
    .optional(),
});

export const BodyComponentSchema = z.object({
  type: z.literal('BODY'),
  text: z.string(),
  example: z.object({ body_text: z.array(z.array(z.string())) }).optional(),
});

export const FooterComponentSchema = z.object({ type: z.literal('FOOTER'), text: z.string() });

export const QuickReplyButtonSchema = z.object({ type: z.literal('QUICK_REPLY'), text: z.string() });
export const UrlButtonSchema = z.object({
  type: z.literal('URL'),
  text: z.string(),
  url: z.string(),
  /** Present when the URL ends with {{1}}: its example values. */
  example: z.array(z.string()).optional(),
});
export const PhoneNumberButtonSchema = z.object({
  type: z.literal('PHONE_NUMBER'),
  text: z.string(),
  phone_number: z.string(),
});
export const TemplateButtonSchema = z
  .discriminatedUnion('type', [QuickReplyButtonSchema, UrlButtonSchema, PhoneNumberButtonSchema])
  .meta({ id: 'TemplateButton' });

export const ButtonsComponentSchema = z.object({
  type: z.literal('BUTTONS'),
  buttons: z.array(TemplateButtonSchema),
});

export const TemplateComponentSchema = z
  .discriminatedUnion('type', [
    HeaderComponentSchema,
    BodyComponentSchema,
    FooterComponentSchema,
    ButtonsComponentSchema,
  ])
  .meta({ id: 'TemplateComponent' });

/** `dynamic_variables`: header {"1": column}; body one object {position: column}. */
export const DynamicVariablesSchema = z.object({
  header_variable: VariableMapSchema.optional(),
  /** The form read for edit: a list of one object mapping '1' to a column. Accepted on write too. */
  header_variables: VariableMapSchema.optional(),
  body_variable: VariableMapSchema.optional(),
});

/** `static_variables`: lists of objects keyed by position to the typed value. */
export const StaticVariablesSchema = z.object({
  header_variable: VariableMapSchema.optional(),
  body_variable: VariableMapSchema.optional(),
});

/** POST/PUT /meta/templates/: the `template_data` JSON of the multipart body (the creation payload). */
export const TemplatePayloadSchema = z
  .object({
    name: z.string(),
    language: z.enum(TEMPLATE_LANGUAGE_CODES),
    category: z.enum(TEMPLATE_CATEGORIES),
    components: z.array(TemplateComponentSchema),
    dynamic_variables: DynamicVariablesSchema.optional(),
    static_variables: StaticVariablesSchema.optional(),
    /** A marketing template's time-to-live in seconds (time-to-live.ts); absent or null: Meta's default. */
    message_send_ttl_seconds: z.number().int().nullable().optional(),
    /** A marketing template's maximum price (max-price.ts): US cents per 1,000 deliveries; absent or null: none. */
    max_price_bid_amount: z.number().int().nullable().optional(),
  })
  .meta({ id: 'TemplatePayload' });

/** GET /meta/templates/ query. */
export const TemplateListQuerySchema = z.object({
  page: PageNumberSchema,
  page_size: z.coerce
    .number({ message: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(100, 'must be a whole number from 1 to 100')
    .default(10),
  search: z.string().trim().max(512).optional(),
  sort: z.enum(TEMPLATE_SORTS).default('latest'),
});

/** Quality as Meta reports it; `date` in epoch seconds. 'UNKNOWN' or null shows 'Unknown'. */
export const TemplateQualityScoreSchema = z.object({ score: z.string(), date: z.number().nullable() });

/** REJECTED's `rejection_info` from Meta: what is wrong and what to change; either may be missing. */
export const TemplateRejectionInfoSchema = z.object({
  reason: z.string().nullable(),
  recommendation: z.string().nullable(),
});

/** A category change Meta has announced but not yet made; `effective_at` ISO 8601, null when Meta gave no date. */
export const TemplatePendingCategorySchema = z.object({
  category: z.string(),
  effective_at: z.string().nullable(),
});

/**
 * What Meta's lifecycle webhooks said of a template beside its status: the rejection's explanation, a lock
 * (still sendable, not editable), a quality warning (FLAGGED, ISO 8601) and a coming category.
 * Optional so that a client built before them still reads.
 */
const TemplateLifecycleFields = {
  rejection_info: TemplateRejectionInfoSchema.nullable().optional(),
  locked: z.boolean().optional(),
  flagged_at: z.string().nullable().optional(),
  pending_category: TemplatePendingCategorySchema.nullable().optional(),
};

/**
 * Template (list item). `template_id` is Meta's id, null for a DRAFT never sent. Category and status
 * are strings (see TEMPLATE_CATEGORIES, TEMPLATE_STATUSES) so a value Meta adds later is passed through.
 */
export const TemplateListItemSchema = z
  .object({
    id: z.number().int(),
    template_id: z.string().nullable(),
    template_name: z.string(),
    category: z.string(),
    language_code: z.string(),
    status: z.string(),
    rejected_reason: z.string().nullable(),
    /** ISO 8601. */
    last_updated_time: z.string(),
    quality_score: TemplateQualityScoreSchema.nullable(),
    /** What the template is made of, a few words per component (summariseComponents): 'Header (image)'. */
    components: z.array(z.string()),
    /** The template's own time-to-live in seconds; null: Meta's default for its category. */
    message_send_ttl_seconds: z.number().int().nullable().optional(),
    /** The template's maximum price (US cents per 1,000 deliveries); null: the rate card. */
    max_price_bid_amount: z.number().int().nullable().optional(),
    ...TemplateLifecycleFields,
  })
  .meta({ id: 'TemplateListItem' });

export const TemplateListResponseSchema = z
  .object({
    count: z.number().int(),
    currentPage: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(TemplateListItemSchema),
    /** When Meta last said the account reached its template limit (LIMIT_EXCEEDED); null when never. */
    template_limit_exceeded_at: z.string().nullable().optional(),
  })
  .meta({ id: 'TemplateList' });

/** A stored component as read back: Meta's shape, kept loose (synced templates may hold more). */
export const StoredTemplateComponentSchema = z.looseObject({ type: z.string() });

/** GET /meta/templates/{id}/: a template as read for edit. */
export const TemplateDetailSchema = z
  .object({
    name: z.string(),
    language: z.string(),
    category: z.string(),
    components: z.array(StoredTemplateComponentSchema),
    dynamic_variables: z.object({
      header_variables: z.array(z.record(z.string(), z.string())).optional(),
      body_variable: z.record(z.string(), z.string()).optional(),
    }),
    static_variables: StaticVariablesSchema.optional(),
    /** Served to the template's owner only; null without a media header. */
    media_url: z.string().nullable(),
    id: z.number().int().optional(),
    template_id: z.string().nullable().optional(),
    status: z.string().optional(),
    rejected_reason: z.string().nullable().optional(),
    message_send_ttl_seconds: z.number().int().nullable().optional(),
    max_price_bid_amount: z.number().int().nullable().optional(),
    ...TemplateLifecycleFields,
  })
  .meta({ id: 'TemplateDetail' });

/** DELETE /meta/templates/ body. */
export const TemplateDeleteRequestSchema = z
  .object({
    template_id: z.string().min(1, 'template_id is required').max(64, 'template_id is too long'),
    template_name: z.string().min(1, 'template_name is required').max(512, 'template_name is too long'),
  })
  .meta({ id: 'TemplateDeleteRequest' });

export const TemplateButtonTypeSchema = z.enum(BUTTON_TYPES);

export type TemplatePayload = z.infer<typeof TemplatePayloadSchema>;
export type TemplateComponent = z.infer<typeof TemplateComponentSchema>;
export type HeaderComponent = z.infer<typeof HeaderComponentSchema>;
export type BodyComponent = z.infer<typeof BodyComponentSchema>;
export type FooterComponent = z.infer<typeof FooterComponentSchema>;
export type ButtonsComponent = z.infer<typeof ButtonsComponentSchema>;
export type TemplateButton = z.infer<typeof TemplateButtonSchema>;
export type TemplateListQuery = z.infer<typeof TemplateListQuerySchema>;
export type TemplateListItem = z.infer<typeof TemplateListItemSchema>;
export type TemplateListResponse = z.infer<typeof TemplateListResponseSchema>;
export type TemplateDetail = z.infer<typeof TemplateDetailSchema>;
export type TemplateDeleteRequest = z.infer<typeof TemplateDeleteRequestSchema>;
export type TemplateRejectionInfo = z.infer<typeof TemplateRejectionInfoSchema>;
export type TemplatePendingCategory = z.infer<typeof TemplatePendingCategorySchema>;
