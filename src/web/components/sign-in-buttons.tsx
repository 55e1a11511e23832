import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../lib/paths.ts';

/** "Log in" and "Sign up", for a page a signed-out visitor cannot use yet. */
export function SignInButtons() {
  return (
    <Group>
      <Button component={Link} to={paths.login}>
        Log in
      </Button>
      <Button component={Link} to={paths.signup} variant="default">
        Sign up
      </Button>
    </Group>
  );
}
