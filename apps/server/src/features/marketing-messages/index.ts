// What other parts of Herald use of the Marketing Messages API feature (features meet only through index.ts).
export {
  endpointsFor,
  forgetMmApiStatus,
  isMmApiOnboarded,
  templateEndpoint,
  type SendEndpoint,
} from './mm-api-repo';
export { MmApiService } from './mm-api-service';
export { applyMmApiTermsSigned } from './mm-api-webhooks';
export { marketingMessagesRoutes } from './routes';
