import {
  Alert,
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  Modal,
  Notification,
  Popover,
} from '@mantine/core';

/**
 * One theme for the whole app. Breakpoints follow the spec: tablet from 768 px, computer from 1024 px.
 * Shades are one step darker than Mantine's defaults so text and filled buttons meet WCAG AA contrast.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  breakpoints: { xs: '30em', sm: '48em', md: '64em', lg: '75em', xl: '88em' },
  components: {
    // The close buttons are icons; screen readers need their name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close menu' } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
    // A popover's target says aria-expanded="true" as soon as it is opened. With an enter transition,
    // Mantine puts the dropdown in the page only in the next animation frame, which a page that paints
    // no frame (a background or covered window) never runs: the target then names a dropdown that is
    // not there, and nothing shows. Without the transition, the dropdown is rendered with the state.
    Popover: Popover.extend({ defaultProps: { transitionProps: { duration: 0 } } }),
    // A light alert's title in its colour's shade falls short of AA contrast on its tinted background:
    // it takes the text colour, and the icon and the tint carry the colour.
    Alert: Alert.extend({
      styles: (_theme, props) =>
        (props.variant ?? 'light') === 'light' ? { title: { color: 'var(--mantine-color-text)' } } : {},
    }),
  },
});

/** Dimmed text and field errors (an input's message and its text) in shades that meet WCAG AA contrast. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    '--mantine-color-error': resolved.colors.red[9],
  },
  dark: {
    '--mantine-color-dimmed': resolved.colors.dark[1],
    '--mantine-color-error': resolved.colors.red[6],
  },
});
