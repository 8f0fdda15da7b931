/**
 * The business account a request acts on, owned by the caller (plugins/waba-scope.ts finds it through the
 * accounts feature). Below the features, so every feature can take it without depending on accounts.
 */
export interface OwnedWaba {
  id: number;
  wabaId: string;
  userId: number;
  businessTokenEncrypted: string;
}
