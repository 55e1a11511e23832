import { createFacebookEmulator } from './facebook/facebook.emulator.ts';
import { createGoogleIdentityEmulator } from './google-identity/google-identity.emulator.ts';
import { type EmulatorFactory, type StartedEmulator, startEmulator } from './shared/start-emulator.ts';

export const SANDBOX_GOOGLE_CLIENT = {
  clientId: 'sandbox-google-client',
  clientSecret: 'sandbox-google-secret',
} as const;

export const SANDBOX_FACEBOOK_APP = {
  appId: 'sandbox-facebook-app',
  appSecret: 'sandbox-facebook-secret',
} as const;

/** The Graph API version the dialog and Graph URLs carry; the emulator accepts any `vNN.N`. */
export const FACEBOOK_GRAPH_VERSION = 'v24.0';

export type StartEmulatorsOptions = {
  /** Interface to listen on and host name of the returned URLs; default `localhost`. */
  host?: string;
  /** 0 or absent = an ephemeral port. */
  ports?: { google?: number; facebook?: number };
  logger?: boolean;
};

export type RunningEmulators = {
  google: { issuer: string; clientId: string; clientSecret: string; origin: string };
  facebook: { dialogUrl: string; graphUrl: string; appId: string; appSecret: string; origin: string };
  close(): Promise<void>;
};

/** Starts every provider emulator on its own port. To add one: start it below and describe it in the result. */
export async function startEmulators(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const started: StartedEmulator[] = [];
  const start = async (create: EmulatorFactory, port: number | undefined) => {
    const emulator = await startEmulator(create, {
      host: options.host ?? 'localhost',
      port: port ?? 0,
      logger: options.logger ?? false,
    });
    started.push(emulator);
    return emulator;
  };

  try {
    const google = await start(
      (base) => createGoogleIdentityEmulator({ ...base, clients: [SANDBOX_GOOGLE_CLIENT] }),
      options.ports?.google,
    );
    const facebook = await start(
      (base) => createFacebookEmulator({ ...base, apps: [SANDBOX_FACEBOOK_APP] }),
      options.ports?.facebook,
    );
    let closing: Promise<void> | undefined;
    return {
      google: { issuer: google.origin, origin: google.origin, ...SANDBOX_GOOGLE_CLIENT },
      facebook: {
        dialogUrl: `${facebook.origin}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`,
        graphUrl: `${facebook.origin}/${FACEBOOK_GRAPH_VERSION}`,
        origin: facebook.origin,
        ...SANDBOX_FACEBOOK_APP,
      },
      close: () => {
        closing ??= closeAll(started);
        return closing;
      },
    };
  } catch (error) {
    await closeAll(started);
    throw error;
  }
}

async function closeAll(started: readonly StartedEmulator[]): Promise<void> {
  const results = await Promise.allSettled(started.map(({ app }) => app.close()));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}
