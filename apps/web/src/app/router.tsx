import { createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { ErrorPage } from './error-page';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';
import type { RouteHandle } from './page-title';
import { ProtectedRoute } from './protected-route';
import { RootRoute } from './root-route';
import { SignInPage } from '../features/auth/routes/sign-in-page';
import {
  BroadcastHistoryPage,
  BroadcastReportPage,
  CreateTemplatePage,
  CustomersPage,
  DashboardPage,
  EditTemplatePage,
  ForgotPasswordPage,
  NewBroadcastPage,
  NumbersPage,
  PinPage,
  PrivacyPage,
  SegmentsPage,
  SettingsPage,
  SignUpPage,
  TemplatesPage,
  TermsPage,
} from './lazy-pages';

const titled = (title: string): RouteHandle => ({ title });

/**
 * The route table, shared by the app's browser router and the tests' memory routers. Sign-in (the
 * first screen of most visits), the guard and the layout are in the entry chunk; every other page is lazy
 * (./lazy-pages) and shows the loading state of the nearest <Suspense> (root route or app layout) meanwhile.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootRoute />,
    errorElement: <ErrorPage />,
    children: [
      { index: true, element: <SignInPage />, handle: titled('Sign in') },
      { path: 'signup', element: <SignUpPage />, handle: titled('Create your account') },
      { path: 'pin', element: <PinPage />, handle: titled('PIN Created Successfully') },
      { path: 'forgot-password', element: <ForgotPasswordPage />, handle: titled('Forgot password') },
      { path: 'terms', element: <TermsPage />, handle: titled('Terms of Service') },
      { path: 'privacy', element: <PrivacyPage />, handle: titled('Privacy Policy') },
      {
        element: <ProtectedRoute />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: 'dashboard', element: <DashboardPage />, handle: titled('Dashboard') },
              { path: 'customers', element: <CustomersPage />, handle: titled('Customers') },
              { path: 'customers/segments', element: <SegmentsPage />, handle: titled('Segments') },
              { path: 'template', element: <TemplatesPage />, handle: titled('Your Templates') },
              {
                path: 'template/create-template',
                element: <CreateTemplatePage />,
                handle: titled('Create Template'),
              },
              {
                path: 'templates/:templateId',
                element: <EditTemplatePage />,
                handle: titled('Edit Template'),
              },
              { path: 'broadcast', element: <BroadcastHistoryPage />, handle: titled('Broadcast History') },
              { path: 'broadcast/new', element: <NewBroadcastPage />, handle: titled('New Broadcast') },
              { path: 'broadcast/:id', element: <BroadcastReportPage />, handle: titled('Delivery Report') },
              { path: 'number', element: <NumbersPage />, handle: titled('WhatsApp Numbers') },
              { path: 'settings', element: <SettingsPage />, handle: titled('Settings') },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage />, handle: titled('Page not found') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
