import { Button, Container, Text, Title } from '@mantine/core';
import { createBrowserRouter, Link, Navigate, RouterProvider } from 'react-router';
import { useAuth } from '../features/auth/api/current-user.ts';
import { AuthCard } from '../features/auth/components/auth-card.tsx';
import { ContactPage } from '../features/contact/contact-page.tsx';
import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { DocumentPage } from '../features/documents/document-page.tsx';
import { HomePage } from '../features/home/home-page.tsx';
import { ProfilePage } from '../features/profile/profile-page.tsx';
import { SubscriptionSuccessPage } from '../features/subscription/subscription-success-page.tsx';
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
      { path: paths.dashboard, element: <DashboardPage /> },
      { path: paths.profile, element: <ProfilePage /> },
      { path: paths.contact, element: <ContactPage /> },
      { path: paths.privacy, element: <DocumentPage name="privacy" /> },
      { path: paths.terms, element: <DocumentPage name="terms" /> },
      { path: paths.legal, element: <DocumentPage name="legal" /> },
      { path: paths.changelog, element: <DocumentPage name="changelog" /> },
      { path: paths.documentation, element: <DocumentPage name="documentation" /> },
      { path: paths.subscriptionSuccess, element: <SubscriptionSuccessPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
