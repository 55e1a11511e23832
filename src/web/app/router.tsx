import { Button, Container, Text, Title } from '@mantine/core';
import { createBrowserRouter, Link, Navigate, RouterProvider } from 'react-router';
import { AuthCard } from '../features/auth/components/auth-card.tsx';
import type { DocumentName } from '../features/documents/document-page.tsx';
import { HomePage } from '../features/home/home-page.tsx';
import { useAuth } from '../lib/current-user.ts';
import { paths } from '../lib/paths.ts';
import { AppLayout } from './layout/app-layout.tsx';

function RootRedirect() {
  const auth = useAuth();
  return <Navigate to={auth ? paths.dashboard : paths.home} replace />;
}

function NotFoundPage() {
  return (
    <Container size="sm" py={64}>
      <Title order={1}>Page not found</Title>
      <Text c="dimmed" my="md">
        There is no page at this address.
      </Text>
      <Button component={Link} to={paths.root}>
        Go to the start page
      </Button>
    </Container>
  );
}

// The signed-in app and the documents load on demand, so the landing page stays small.
const lazyDocument = (name: DocumentName) => async () => {
  const { DocumentPage } = await import('../features/documents/document-page.tsx');
  return { Component: () => <DocumentPage name={name} /> };
};

// Routes match case-insensitively, so /Contact and /contact are the same page.
const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: paths.root, element: <RootRedirect /> },
      { path: paths.home, element: <HomePage /> },
      { path: '/homepage', element: <Navigate to={paths.home} replace /> },
      { path: paths.login, element: <AuthCard mode="login" /> },
      { path: paths.signup, element: <AuthCard mode="signup" /> },
      {
        path: paths.dashboard,
        lazy: async () => ({
          Component: (await import('./pages/dashboard-page.tsx')).DashboardPage,
        }),
      },
      {
        path: paths.profile,
        lazy: async () => ({ Component: (await import('./pages/profile-page.tsx')).ProfilePage }),
      },
      {
        path: paths.contact,
        lazy: async () => ({ Component: (await import('../features/contact/contact-page.tsx')).ContactPage }),
      },
      { path: paths.privacy, lazy: lazyDocument('privacy') },
      { path: paths.terms, lazy: lazyDocument('terms') },
      { path: paths.legal, lazy: lazyDocument('legal') },
      { path: paths.changelog, lazy: lazyDocument('changelog') },
      { path: paths.documentation, lazy: lazyDocument('documentation') },
      {
        path: paths.subscriptionSuccess,
        lazy: async () => ({
          Component: (await import('../features/subscription/subscription-success-page.tsx'))
            .SubscriptionSuccessPage,
        }),
      },
      {
        path: paths.noticesOff,
        lazy: async () => ({
          Component: (await import('../features/profile/notices-off-page.tsx')).NoticesOffPage,
        }),
      },
      {
        path: paths.sandbox,
        lazy: async () => ({ Component: (await import('../features/sandbox/sandbox-page.tsx')).SandboxPage }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
