import { createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { ErrorPage } from './error-page';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';
import type { RouteHandle } from './page-title';
import { ProtectedRoute } from './protected-route';
import { RootRoute } from './root-route';
import { SignInPage } from '../features/auth/routes/sign-in-page';
import { SignUpPage } from '../features/auth/routes/sign-up-page';
import { PinPage } from '../features/auth/routes/pin-page';
import { ForgotPasswordPage } from '../features/auth/routes/forgot-password-page';
import { TermsPage } from '../features/legal/routes/terms-page';
import { PrivacyPage } from '../features/legal/routes/privacy-page';
import { DashboardPage } from '../features/dashboard/routes/dashboard-page';
import { CustomersPage } from '../features/contacts/routes/customers-page';
import { TemplatesPage } from '../features/templates/routes/templates-page';
import { CreateTemplatePage } from '../features/templates/routes/create-template-page';
import { EditTemplatePage } from '../features/templates/routes/edit-template-page';
import { BroadcastHistoryPage } from '../features/broadcasts/routes/broadcast-history-page';
import { NewBroadcastPage } from '../features/broadcasts/routes/new-broadcast-page';
import { BroadcastReportPage } from '../features/broadcasts/routes/broadcast-report-page';
import { NumbersPage } from '../features/numbers/routes/numbers-page';
import { SettingsPage } from '../features/settings/routes/settings-page';

const titled = (title: string): RouteHandle => ({ title });

/** The route table of spec §2, shared by the app's browser router and the tests' memory routers. */
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
