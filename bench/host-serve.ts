import type { Api } from './host-client.ts';
import type { ProcessReply, ProcessRequest } from './protocol.ts';

/**
 * The other side of `startChild`: answers the benchmark's calls with `handlers`, one answer a request,
 * and exits once `stop` is answered. When the benchmark goes away, `closeAll` runs first (rather than
 * linger with the database or the ports open) and the process exits with 1.
 */
export function serveParent(handlers: Api, closeAll: () => Promise<unknown>): void {
  let stopping = false;
  process.on('message', (message: ProcessRequest) => {
    const handler = handlers[message.cmd] as Api[string];
    handler(message.args).then(
      (result) => reply({ id: message.id, ok: true, result }, message.cmd === 'stop'),
      (error: unknown) =>
        reply({
          id: message.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  process.on('disconnect', () => {
    if (stopping) return;
    stopping = true;
    void closeAll().finally(() => process.exit(1));
  });

  function reply(message: ProcessReply, last = false) {
    process.send?.(message, undefined, {}, () => {
      if (!last) return;
      stopping = true;
      process.disconnect?.();
      // A CPU profile (--cpu-prof) is written on the way out.
      process.exit(0);
    });
  }
}
