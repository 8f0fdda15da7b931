/** Template categories; Meta may re-categorise a template after review. */
export const TEMPLATE_CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
export const DEFAULT_TEMPLATE_CATEGORY: TemplateCategory = 'MARKETING';

/** HEADER `format` values of the payload (Meta's four plus the form's location). */
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];
export const MEDIA_HEADER_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type MediaHeaderFormat = (typeof MEDIA_HEADER_FORMATS)[number];

/** The form's six header types (its `headerType`, as the Header section lists them). */
export const HEADER_TYPES = ['none', 'text', 'image', 'video', 'document', 'location'] as const;
export type HeaderType = (typeof HEADER_TYPES)[number];
export const HEADER_TYPE_LABELS: Record<HeaderType, string> = {
  none: 'No Header',
  text: 'Text',
  image: 'Image',
  video: 'Video',
  document: 'Document',
  location: 'Location',
};

export const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

/** Button `type` of the payload (kept as `sub_type` in the form). */
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

/** Meta's template statuses plus Herald's DRAFT (kept locally while the Cloud API is unreachable). */
export const TEMPLATE_STATUSES = [
  'DRAFT',
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
  'ARCHIVED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** Meta allows edits only in these statuses (its Cloud API documentation). */
export const EDITABLE_TEMPLATE_STATUSES = ['APPROVED', 'REJECTED', 'PAUSED'] as const;

export const TEMPLATE_SORTS = ['latest', 'oldest', 'name'] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];
export const TEMPLATE_SORT_LABELS: Record<TemplateSort, string> = {
  latest: 'Latest',
  oldest: 'Oldest',
  name: 'Name',
};

/** The form's limits and Meta's. Lengths count UTF-16 code units, as a textarea's maxLength does. */
export const TEMPLATE_LIMITS = {
  nameMaxLength: 512,
  headerTextMaxLength: 60,
  bodyMaxLength: 1024,
  footerMaxLength: 60,
  buttonTextMaxLength: 25,
  urlMaxLength: 2000,
  phoneNumberMaxLength: 20,
  maxButtons: 10,
  maxPhoneButtons: 1,
  maxUrlButtons: 2,
  maxBodyVariables: 10,
  maxHeaderVariables: 1,
  /** The renumbering notices vanish after 3 s. */
  noticeMs: 3000,
} as const;

/**
 * Every message of the template rules. Those quoted by the spec are exact; the others are Herald's,
 * for rules the spec leaves silent (Meta's limits), worded in the same style.
 */
export const TEMPLATE_MESSAGES = {
  // The spec's words, exact.
  nameInvalid: 'Only lowercase letters and underscores are allowed',
  incompleteVariable: 'Please complete the variable format: {{1}}',
  variableValueRequired: 'Variable value is required',
  customerParameterRequired: 'Customer parameter is required',
  selectField: 'Select a field',
  variablesExceedNotice: 'Variable numbers cannot exceed 10. Converting to sequential numbering...',
  variablesSequentialNotice: 'Variables must be sequential. Automatically fixing...',
  phoneButtonLimit: 'Only one phone number button allowed',
  urlButtonLimit: 'Maximum 2 URL buttons allowed',
  documentNameHint: 'Cannot contain special characters like /:*?"<>|',
  deleteConfirm: 'Are you sure you want to delete the template?',
  // The spec's toasts, exact.
  saved: 'Template saved successfully!',
  updated: 'Template updated successfully!',
  saveFailed: 'Error saving template:',
  updateFailed: 'Error updating template',
  loadFailed: 'Failed to load template',
  // Herald's own wording.
  payloadNotObject: 'The template data must be a JSON object',
  nameRequired: 'Template name is required',
  nameTooLong: 'Template name cannot exceed 512 characters',
  categoryInvalid: 'Category must be AUTHENTICATION, MARKETING or UTILITY',
  languageInvalid: 'Select a supported language',
  componentsInvalid: 'Components must be a list',
  componentUnknown: 'Unknown component type',
  componentDuplicate: (type: string) => `Only one ${type} component is allowed`,
  headerFormatInvalid: 'Header type must be TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION',
  headerTextRequired: 'Header text is required',
  headerTextTooLong: 'Header text cannot exceed 60 characters',
  headerOneVariable: 'Only one header variable ({{1}}) is allowed',
  mediaRequired: 'Please upload a file for the header',
  documentNameRequired: 'Document name is required',
  locationNameRequired: 'Location name is required',
  addressRequired: 'Address is required',
  bodyRequired: 'Body text is required',
  bodyTooLong: 'Body text cannot exceed 1024 characters',
  bodyTooManyVariables: 'A body can have at most 10 variables',
  bodyNotSequential: 'Variables must be numbered {{1}}, {{2}}, ... without gaps',
  // Meta refuses it at creation (code 100, subcode 2388299, "Variables can't be at the start or end of the template.").
  bodyVariableAtEdge: "Body text can't start or end with a variable: add words before or after it",
  footerRequired: 'Footer text is required',
  footerTooLong: 'Footer text cannot exceed 60 characters',
  footerNoVariables: 'Footer text cannot contain variables',
  buttonsInvalid: 'Buttons must be a list',
  buttonLimit: 'Maximum 10 buttons allowed',
  buttonTypeInvalid: 'Button type must be QUICK_REPLY, URL or PHONE_NUMBER',
  buttonTextRequired: 'Button text is required',
  buttonTextTooLong: 'Button text cannot exceed 25 characters',
  quickRepliesGrouped: 'Quick reply buttons must be grouped together',
  urlRequired: 'URL is required',
  urlInvalid: 'Enter a valid URL starting with http:// or https://',
  urlTooLong: 'URL cannot exceed 2000 characters',
  urlVariableAtEnd: 'A dynamic URL can have one variable, {{1}}, at its end',
  urlExampleRequired: 'An example value is required for a dynamic URL',
  phoneNumberRequired: 'Phone number is required',
  phoneNumberInvalid: 'Enter a phone number with its country code, e.g. +14155550123',
} as const;

/** Labels and placeholders of the create and edit screens. */
export const TEMPLATE_UI_TEXT = {
  saveButton: 'Save Template',
  saving: 'Saving Template .....',
  updateButton: 'Update Template',
  updating: 'Updating Template...',
  loading: 'Loading...',
  headerTextPlaceholder: 'Header text (use {{1}} for variable)',
  addVariable: 'Add Variable',
  maxVariables: 'Max Variables',
  useDynamicVariable: 'Use dynamic variable',
  selectCustomerParameter: 'Select Customer Parameter',
  selectField: 'Select a field',
  locationName: 'Location Name',
  address: 'Address',
  uploadArea: 'Click to upload or drag and drop',
  documentName: 'Document Name',
  bodyTitle: 'Body Content',
  bodySubtitle: 'Configure your message body and variables',
  bodyPlaceholder: 'Type your message here. Use {{1}}, {{2}}, etc. for variables...',
  required: 'Required',
  variableConfiguration: 'Variable Configuration',
  static: 'Static',
  dynamic: 'Dynamic',
  headerValueFor: 'Value for {{1}}',
  bodyValueFor: (n: number) => `Value for {{${n}}} (Required)`,
  variablesCounter: (n: number) => `Variables: ${n}/10`,
  previewTime: '8:00 AM',
  previewProfile: 'profile',
} as const;
