// What other features use of the templates feature (decision 071: features meet only through index.ts).
export { applyTemplateQualityUpdate, applyTemplateStatusUpdate } from './template-webhooks';
export { applyTemplateCategoryUpdate } from './template-category-webhooks';
export { applyTemplateComponentsUpdate } from './template-components-webhooks';
