import type { FastifyInstance } from 'fastify';
import type { EmulatorFactoryOptions } from './emulator-options.ts';

export type EmulatorFactory = (options: EmulatorFactoryOptions) => Promise<FastifyInstance>;

export type StartedEmulator = { app: FastifyInstance; origin: string };

/** Builds an emulator, listens (port 0 = ephemeral) and tells it the origin it is reachable at. */
export async function startEmulator(
  create: EmulatorFactory,
  options: { host: string; port: number; logger: boolean; protocol?: 'http' | 'https' },
): Promise<StartedEmulator> {
  let origin: string | undefined;
  const app = await create({
    logger: options.logger,
    getOrigin: () => {
      if (origin === undefined) throw new Error('The emulator origin is only known once it listens');
      return origin;
    },
  });
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  origin = `${options.protocol ?? 'http'}://${originHost(options.host)}:${port}`;
  return { app, origin };
}

/** Wildcard addresses are not browsable; the browser and the server both reach them as localhost. */
function originHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
