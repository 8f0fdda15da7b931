// What other features use of the accounts feature (decision 071: features meet only through index.ts).
export {
  findOwnedWaba,
  findWabaOwner,
  insertWaba,
  listWabaAccounts,
  upsertPhoneNumbers,
} from './accounts-repo';
export {
  activateAtCloudApi,
  cloudApiFailure,
  proveEmbeddedSignup,
  type ProvenSignup,
} from './cloud-onboarding';
