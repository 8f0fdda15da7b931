// What other features use of the notifications feature (decision 071: features meet only through index.ts).
export { recordAccountEvent, type AccountEvent } from './account-events';
