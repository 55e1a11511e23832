import { Alert, Anchor, Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { IconBrandFacebookFilled, IconBrandGoogleFilled } from '@tabler/icons-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { SIGN_IN_ERROR_REASONS, type SignInErrorReason } from '#shared/api/auth.schema.ts';
import { trackConversion } from '../../../lib/analytics.ts';
import { useAuth } from '../../../lib/current-user.ts';
import { paths } from '../../../lib/paths.ts';

type Mode = 'login' | 'signup';

const copy = {
  login: { title: 'Log in', subtitle: 'Welcome back. Choose how you signed up.', verb: 'Log in' },
  signup: {
    title: 'Sign up',
    subtitle: 'Start your 14-day free trial. No credit card needed.',
    verb: 'Sign up',
  },
} as const;

/** The sign-in providers, each button in its brand's look. */
const PROVIDERS = [
  {
    id: 'google',
    name: 'Google',
    href: paths.signInWithGoogle,
    icon: IconBrandGoogleFilled,
    look: { variant: 'default' },
  },
  {
    id: 'facebook',
    name: 'Facebook',
    href: paths.signInWithFacebook,
    icon: IconBrandFacebookFilled,
    look: { color: '#0866FF' },
  },
] as const;

/** Why the last sign-in attempt came back to this page (`/login?error=<reason>`, set by the server). */
const errorMessages: Record<SignInErrorReason, string> = {
  cancelled: 'Sign-in was cancelled. Choose a provider to try again.',
  expired: 'Your sign-in took too long or was opened in another browser. Please try again.',
  failed: 'We could not complete your sign-in. Please try again in a moment.',
  unavailable: 'This sign-in option is not available right now. Please use the other one.',
  'too-many': 'Too many sign-in attempts from your network. Please wait a minute and try again.',
};

function isSignInErrorReason(value: string): value is SignInErrorReason {
  return SIGN_IN_ERROR_REASONS.some((reason) => reason === value);
}

export function AuthCard({ mode }: { mode: Mode }) {
  const auth = useAuth();
  const [params] = useSearchParams();
  const error = params.get('error');
  const text = copy[mode];

  if (auth) return <Navigate to={paths.dashboard} replace />;

  return (
    <Container size={460} py={64}>
      <Card withBorder shadow="sm" padding="xl">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {text.title}
            </Title>
            <Text c="dimmed" mt={4}>
              {text.subtitle}
            </Text>
          </div>
          {error && (
            <Alert color="red" title="Sign-in did not complete">
              {errorMessages[isSignInErrorReason(error) ? error : 'failed']}
            </Alert>
          )}
          {PROVIDERS.map(({ id, name, href, icon: ProviderIcon, look }) => (
            <Button
              key={id}
              component="a"
              href={href}
              onClick={() =>
                trackConversion(mode === 'signup' ? 'sign_up_click' : 'login_click', { provider: id })
              }
              size="md"
              {...look}
              leftSection={<ProviderIcon size={18} aria-hidden />}
            >
              {text.verb} with {name}
            </Button>
          ))}
          <Text size="sm" c="dimmed">
            By continuing you accept our{' '}
            <Anchor component={Link} to={paths.terms} inherit underline="always">
              Terms and Conditions
            </Anchor>{' '}
            and our{' '}
            <Anchor component={Link} to={paths.privacy} inherit underline="always">
              Privacy Policy
            </Anchor>
            .
          </Text>
          <Text size="sm">
            {mode === 'login' ? (
              <>
                New here?{' '}
                <Anchor component={Link} to={paths.signup} inherit underline="always">
                  Create an account
                </Anchor>
              </>
            ) : (
              <>
                Already have an account?{' '}
                <Anchor component={Link} to={paths.login} inherit underline="always">
                  Log in
                </Anchor>
              </>
            )}
          </Text>
        </Stack>
      </Card>
    </Container>
  );
}
