/** What every emulator factory receives from `startEmulators`. */
export type EmulatorFactoryOptions = {
  /** The emulator's own origin (e.g. `http://localhost:4101`); only known after it listens. */
  getOrigin: () => string;
  logger?: boolean;
};
