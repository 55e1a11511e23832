/** The product's name, version and prices: the one place the web and the server read them from. */
export const PRODUCT_NAME = 'Timeboxer';
export const PRODUCT_KEY = 'timeboxer';
export const APP_VERSION = '1.6.1';
export const TRIAL_DAYS = 14;
export const SOCIAL_URL = 'https://mastodon.social/@timeboxer';
export const CONSENT_COOKIE_NAME = `${PRODUCT_KEY}-consent`;
