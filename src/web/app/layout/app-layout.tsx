import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { CookieConsentBanner } from '../../features/consent/cookie-consent-banner.tsx';
import { ThirdPartyScripts } from '../../features/consent/third-party-scripts.tsx';
import { useAuth } from '../../lib/current-user.ts';
import { useScrollToHash } from '../../lib/use-scroll-to-hash.ts';
import { MobileMenu } from './mobile-menu.tsx';
import { SiteFooter } from './site-footer.tsx';
import { TopBar } from './top-bar.tsx';

export function AppLayout() {
  const auth = useAuth();
  const [drawerOpened, drawer] = useDisclosure(false);
  useScrollToHash(auth !== null);

  // Nothing renders while the auth state is unknown, so no page flashes the wrong variant.
  if (auth === null) {
    return (
      <Center h="100dvh">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  }

  return (
    <AppShell header={{ height: 64 }} padding={0}>
      <AppShell.Header>
        <TopBar user={auth} drawerOpened={drawerOpened} onToggleDrawer={drawer.toggle} />
      </AppShell.Header>
      <MobileMenu user={auth} opened={drawerOpened} onClose={drawer.close} />
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
        <div style={{ flex: 1 }}>
          <Outlet />
        </div>
        <SiteFooter />
      </AppShell.Main>
      <CookieConsentBanner />
      <ThirdPartyScripts />
    </AppShell>
  );
}
