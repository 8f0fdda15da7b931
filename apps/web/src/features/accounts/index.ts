// What other features use of the accounts feature (decision 071: features meet only through index.ts).
export { WhatsAppAccountsPanel } from './components/whatsapp-accounts-panel';
