/**
 * One example of each WhatsApp Business Account webhook event the sandbox can send on demand
 * (`POST /__sandbox/webhook-events`), in the shapes of Meta's webhook reference pages (webhooks/reference/<field>,
 * the 2026 versions): account standing, alerts and review, security, the number's name, a person's marketing
 * preference, a person's new number or BSUID, and a template's lifecycle and category. Statuses and inbound
 * messages come from sending (`/messages`) and `/__sandbox/inbound`, as they do at Meta.
 */

/** Who and what an example names; each example uses the parts its event carries. */
export interface ExampleContext {
  wabaId: string;
  phoneNumberId: string;
  /** The business number's digits, as `display_phone_number` carries them. */
  displayDigits: string;
  /** A WhatsApp user's number (digits) and, since 2026, BSUID. */
  from: string;
  userId: string | null;
  /** The user's new number (user_changed_number) or BSUID (user_changed_user_id). */
  newNumber: string | null;
  newUserId: string | null;
  template: { id: string; name: string; language: string; category?: string } | null;
  /** The WABA's business portfolio, where an event names it (else an example id). */
  ownerBusinessId?: string;
  now: Date;
}

export interface WebhookExample {
  field: string;
  value(context: ExampleContext): Record<string, unknown>;
}

const unix = (date: Date, plusSeconds = 0) => String(Math.floor(date.getTime() / 1000) + plusSeconds);

const accountUpdate = (event: string, extra: (c: ExampleContext) => object = () => ({})): WebhookExample => ({
  field: 'account_update',
  value: (c) => ({ event, ...extra(c) }),
});

const alert = (alertType: string, severity = 'WARNING'): WebhookExample => ({
  field: 'account_alerts',
  value: (c) => ({
    entity_type: 'WABA',
    entity_id: c.wabaId,
    alert_severity: severity,
    alert_status: 'ACTIVE',
    alert_type: alertType,
    alert_description: `Example ${alertType.toLowerCase().replace(/_/g, ' ')}`,
  }),
});

const security = (event: string): WebhookExample => ({
  field: 'security',
  value: (c) => ({
    display_phone_number: c.displayDigits,
    event,
    ...(event === 'PIN_RESET_REQUEST' ? { requester: '1234567890' } : {}),
  }),
});

const metadata = (c: ExampleContext) => ({
  display_phone_number: c.displayDigits,
  phone_number_id: c.phoneNumberId,
});

const preference = (value: 'stop' | 'resume'): WebhookExample => ({
  field: 'user_preferences',
  value: (c) => ({
    messaging_product: 'whatsapp',
    metadata: metadata(c),
    contacts: [
      { profile: { name: 'Example User' }, wa_id: c.from, ...(c.userId ? { user_id: c.userId } : {}) },
    ],
    user_preferences: [
      {
        wa_id: c.from,
        ...(c.userId ? { user_id: c.userId } : {}),
        detail:
          value === 'stop'
            ? 'User requested to stop marketing messages'
            : 'User requested to resume marketing messages',
        category: 'marketing_messages',
        value,
        timestamp: Number(unix(c.now)),
      },
    ],
  }),
});

const templateOf = (c: ExampleContext) => {
  if (c.template === null) throw new Error('template is required for a template event');
  return c.template;
};

/** How every template event names its template. */
const templateFields = (c: ExampleContext) => {
  const template = templateOf(c);
  return {
    // Meta sends this id as a JSON number; 15-digit ids are exact in a double.
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
  };
};

// Since 2026 every status notification names the template's category (Meta's reference, Apr 2026).
const templateStatus = (event: string, extra: object = {}): WebhookExample => ({
  field: 'message_template_status_update',
  value: (c) => ({
    event,
    ...templateFields(c),
    reason: null,
    ...(templateOf(c).category && { message_template_category: templateOf(c).category }),
    ...extra,
  }),
});

const categoryUpdate = (categories: (c: ExampleContext) => object): WebhookExample => ({
  field: 'template_category_update',
  value: (c) => ({ ...templateFields(c), ...categories(c) }),
});

export const WEBHOOK_EXAMPLES: Record<string, WebhookExample> = {
  'account_update:ACCOUNT_VIOLATION': accountUpdate('ACCOUNT_VIOLATION', () => ({
    violation_info: { violation_type: 'SCAM' },
  })),
  'account_update:ACCOUNT_RESTRICTION': accountUpdate('ACCOUNT_RESTRICTION', (c) => ({
    restriction_info: [
      { restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: Number(unix(c.now, 7 * 86_400)) },
    ],
  })),
  'account_update:DISABLED_UPDATE': accountUpdate('DISABLED_UPDATE', (c) => ({
    ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: c.now.toISOString().slice(0, 10) },
  })),
  'account_update:DISABLED_UPDATE REINSTATE': accountUpdate('DISABLED_UPDATE', (c) => ({
    ban_info: { waba_ban_state: 'REINSTATE', waba_ban_date: c.now.toISOString().slice(0, 10) },
  })),
  'account_update:ACCOUNT_DELETED': accountUpdate('ACCOUNT_DELETED'),
  'account_update:ACCOUNT_OFFBOARDED': accountUpdate('ACCOUNT_OFFBOARDED'),
  'account_update:ACCOUNT_RECONNECTED': accountUpdate('ACCOUNT_RECONNECTED'),
  'account_update:PARTNER_ADDED': accountUpdate('PARTNER_ADDED', (c) => ({
    waba_info: { waba_id: c.wabaId, owner_business_id: '1000000000001' },
  })),
  'account_update:PARTNER_REMOVED': accountUpdate('PARTNER_REMOVED', (c) => ({
    waba_info: { waba_id: c.wabaId, owner_business_id: '1000000000001' },
  })),
  'account_update:PARTNER_APP_INSTALLED': accountUpdate('PARTNER_APP_INSTALLED', (c) => ({
    waba_info: { waba_id: c.wabaId, owner_business_id: '1000000000001', partner_app_id: '2000000000002' },
  })),
  'account_update:PARTNER_APP_UNINSTALLED': accountUpdate('PARTNER_APP_UNINSTALLED', (c) => ({
    waba_info: { waba_id: c.wabaId, owner_business_id: '1000000000001', partner_app_id: '2000000000002' },
  })),
  'account_update:PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE': accountUpdate(
    'PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE',
    () => ({
      partner_client_certification_info: { client_business_id: '1000000000001', status: 'APPROVED' },
    }),
  ),
  'account_update:AUTH_INTL_PRICE_ELIGIBILITY_UPDATE': accountUpdate(
    'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE',
    (c) => ({
      auth_international_rate_eligibility: {
        exception_countries: [{ country_code: 'ID', start_time: Number(unix(c.now)) }],
        start_time: Number(unix(c.now)),
      },
    }),
  ),
  'account_update:BUSINESS_PRIMARY_LOCATION_COUNTRY_UPDATE': accountUpdate(
    'BUSINESS_PRIMARY_LOCATION_COUNTRY_UPDATE',
    () => ({ country: 'GB' }),
  ),
  'account_update:AD_ACCOUNT_LINKED': accountUpdate('AD_ACCOUNT_LINKED', (c) => ({
    waba_info: { waba_id: c.wabaId, ad_account_linked: '3000000000003', owner_business_id: '1000000000001' },
  })),
  // Sent per eligible WABA once its portfolio signed the MM API terms (`POST /__sandbox/businesses/…/marketing-messages-terms`).
  'account_update:MM_LITE_TERMS_SIGNED': accountUpdate('MM_LITE_TERMS_SIGNED', (c) => ({
    waba_info: { waba_id: c.wabaId, owner_business_id: c.ownerBusinessId ?? '1000000000001' },
  })),
  'account_update:VOLUME_BASED_PRICING_TIER_UPDATE': accountUpdate(
    'VOLUME_BASED_PRICING_TIER_UPDATE',
    () => ({
      volume_tier_info: {
        tier_update_time: 0,
        pricing_category: 'UTILITY',
        tier: '0:1000000',
        effective_month: '2026-12',
      },
    }),
  ),
  'account_alerts:INCREASED_CAPABILITIES_ELIGIBILITY_DEFERRED': alert(
    'INCREASED_CAPABILITIES_ELIGIBILITY_DEFERRED',
  ),
  'account_alerts:INCREASED_CAPABILITIES_ELIGIBILITY_FAILED': alert(
    'INCREASED_CAPABILITIES_ELIGIBILITY_FAILED',
  ),
  'account_alerts:INCREASED_CAPABILITIES_ELIGIBILITY_NEED_MORE_INFO': alert(
    'INCREASED_CAPABILITIES_ELIGIBILITY_NEED_MORE_INFO',
  ),
  'account_alerts:OBA_APPROVED': alert('OBA_APPROVED', 'INFORMATIONAL'),
  'account_alerts:OBA_REJECTED': alert('OBA_REJECTED'),
  'account_alerts:PROFILE_PICTURE_LOST': alert('PROFILE_PICTURE_LOST'),
  'account_review_update:APPROVED': {
    field: 'account_review_update',
    value: () => ({ decision: 'APPROVED' }),
  },
  'account_review_update:REJECTED': {
    field: 'account_review_update',
    value: () => ({ decision: 'REJECTED' }),
  },
  'security:PIN_CHANGED': security('PIN_CHANGED'),
  'security:PIN_RESET_REQUEST': security('PIN_RESET_REQUEST'),
  'security:PIN_REQUEST_SUCCESS': security('PIN_REQUEST_SUCCESS'),
  'phone_number_name_update:APPROVED': {
    field: 'phone_number_name_update',
    value: (c) => ({
      display_phone_number: c.displayDigits,
      decision: 'APPROVED',
      requested_verified_name: 'Example Shop',
      rejection_reason: null,
    }),
  },
  'phone_number_name_update:REJECTED': {
    field: 'phone_number_name_update',
    value: (c) => ({
      display_phone_number: c.displayDigits,
      decision: 'REJECTED',
      requested_verified_name: 'Example Shop Deals',
      rejection_reason: 'RELATIONSHIP_UNCLEAR',
    }),
  },
  // Meta's webhook errors page: a messages change with only `errors`, when something could not be processed.
  'messages:errors': {
    field: 'messages',
    value: (c) => ({
      messaging_product: 'whatsapp',
      metadata: metadata(c),
      errors: [
        {
          code: 130501,
          title: 'Unsupported message type',
          message: 'Unsupported message type',
          error_data: { details: 'Message type is not currently supported' },
          href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
        },
      ],
    }),
  },
  'user_preferences:stop': preference('stop'),
  'user_preferences:resume': preference('resume'),
  'messages:system user_changed_number': {
    field: 'messages',
    value: (c) => {
      if (c.newNumber === null) throw new Error('new_number is required for user_changed_number');
      return {
        messaging_product: 'whatsapp',
        metadata: metadata(c),
        messages: [
          {
            from: c.from,
            id: `wamid.example.${c.from}.${c.now.getTime()}`,
            timestamp: unix(c.now),
            type: 'system',
            system: {
              body: `User ${c.from} changed from ${c.from} to ${c.newNumber}`,
              wa_id: c.newNumber,
              type: 'user_changed_number',
            },
          },
        ],
      };
    },
  },
  'messages:system user_changed_user_id': {
    field: 'messages',
    value: (c) => {
      if (c.userId === null || c.newUserId === null) throw new Error('user_id and new_user_id are required');
      return {
        messaging_product: 'whatsapp',
        metadata: metadata(c),
        messages: [
          {
            from_user_id: c.userId,
            id: `wamid.example.${c.now.getTime()}`,
            timestamp: unix(c.now),
            type: 'system',
            system: {
              body: `User ${c.userId} changed to ${c.newUserId}`,
              type: 'user_changed_user_id',
              user_id: c.newUserId,
              previous_user_id: c.userId,
            },
          },
        ],
      };
    },
  },
  'message_template_status_update:APPROVED': templateStatus('APPROVED', { reason: 'NONE' }),
  'message_template_status_update:REJECTED': templateStatus('REJECTED', {
    reason: 'INVALID_FORMAT',
    rejection_info: { reason: 'The body has a variable at its end.', recommendation: 'Move the variable.' },
  }),
  'message_template_status_update:PAUSED': templateStatus('PAUSED', {
    other_info: { title: 'FIRST_PAUSE', description: 'Paused for 3 hours: low quality.' },
  }),
  'message_template_status_update:ARCHIVED': templateStatus('ARCHIVED'),
  'message_template_status_update:UNARCHIVED': templateStatus('UNARCHIVED'),
  'message_template_status_update:PENDING_DELETION': templateStatus('PENDING_DELETION'),
  'message_template_status_update:LOCKED': templateStatus('LOCKED', {
    other_info: { title: 'LOCKED', description: 'The template cannot be edited.' },
  }),
  'message_template_status_update:FLAGGED': templateStatus('FLAGGED'),
  'message_template_status_update:LIMIT_EXCEEDED': templateStatus('LIMIT_EXCEEDED'),
  // The notice a day ahead names the category to come (correct_category) and the current one (new_category).
  'template_category_update:impending': categoryUpdate((c) => ({
    correct_category: 'MARKETING',
    new_category: 'UTILITY',
    category_update_timestamp: Number(unix(c.now, 86_400)),
  })),
  // An edit made in WhatsApp Manager: the texts as they are now; title, footer and buttons only when it has them.
  message_template_components_update: {
    field: 'message_template_components_update',
    value: (c) => ({
      ...templateFields(c),
      message_template_element: 'Your order {{1}} is ready to collect (edited in WhatsApp Manager)',
      message_template_title: 'Order update',
      message_template_footer: 'Reply STOP to opt out',
      message_template_buttons: [
        {
          message_template_button_type: 'URL',
          message_template_button_text: 'Track order',
          message_template_button_url: 'https://shop.example/track/{{1}}',
        },
      ],
    }),
  },
  'template_category_update:done': categoryUpdate(() => ({
    previous_category: 'UTILITY',
    new_category: 'MARKETING',
  })),
};

/** Meta's notification around one change's value. */
export function exampleNotification(name: string, context: ExampleContext) {
  const example = WEBHOOK_EXAMPLES[name];
  if (!example) return null;
  return {
    field: example.field,
    body: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: context.wabaId,
          time: Number(unix(context.now)),
          changes: [{ value: example.value(context), field: example.field }],
        },
      ],
    },
  };
}
