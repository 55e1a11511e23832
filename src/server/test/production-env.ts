/**
 * The environment of a production start for tests: real-looking credentials, a random-looking session
 * secret and token key (production refuses hand-made ones, see config.ts).
 */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  APP_URL: 'https://app.example',
  SESSION_SECRET: 'q8Zr2LmX0vT5nB7cYh3KdW9sPaE1uJfG',
  // 32 bytes from a random source, written down once (a generated pattern would be refused as not random).
  TOKEN_ENCRYPTION_KEYS: 'prod:E38RLjGhJnjB5DakbZOz5b5R1NBGIimKyDYRnNbEiRY=',
  GOOGLE_CLIENT_ID: 'id',
  GOOGLE_CLIENT_SECRET: 'secret',
  GOOGLE_ISSUER: 'https://accounts.example',
} as const;
