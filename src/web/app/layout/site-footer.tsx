import { Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PRODUCT_NAME, SOCIAL_URL } from '#shared/product.ts';
import { paths } from '../../lib/paths.ts';

const links = [
  { to: paths.home, label: `${PRODUCT_NAME} home` },
  { to: paths.contact, label: 'Contact Us' },
  { to: paths.legal, label: 'Legal Notice' },
  { to: paths.terms, label: 'Terms and Conditions' },
  { to: paths.privacy, label: 'Privacy Policy' },
  { to: paths.documentation, label: 'Documentation' },
  { to: paths.changelog, label: 'Changelog' },
];

export function SiteFooter() {
  return (
    <footer style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg" py="xl">
        <Stack gap="sm" align="center">
          <Group gap="md" justify="center" component="nav" aria-label="Footer">
            {links.map((link) => (
              <Anchor key={link.to} component={Link} to={link.to} size="sm" c="dimmed">
                {link.label}
              </Anchor>
            ))}
            <Anchor href={SOCIAL_URL} target="_blank" rel="noopener noreferrer" size="sm" c="dimmed">
              Follow us on Mastodon
            </Anchor>
          </Group>
          <Text size="sm" c="dimmed">
            Made in Germany · © {new Date().getFullYear()} {PRODUCT_NAME}
          </Text>
        </Stack>
      </Container>
    </footer>
  );
}
