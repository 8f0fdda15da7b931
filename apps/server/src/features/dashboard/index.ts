// What other features use of the dashboard feature (decision 071: features meet only through index.ts).
export { recordImportEvent } from './account-events';
