// What other features use of the settings feature (decision 071: features meet only through index.ts).
export { readAccountSettings, readReplyWords } from './settings-repo';
