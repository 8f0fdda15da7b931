// The app's lazy pages, for the tests of a feature's page that wait for its code (`preload`). Features do not
// import app/ (eslint.config.js); tests reach the app through this harness, as renderRoute reaches its route table.
export {
  BroadcastHistoryPage,
  BroadcastReportPage,
  DashboardPage,
  NewBroadcastPage,
} from '../app/lazy-pages';
