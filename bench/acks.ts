/** The webhook acknowledgements of a burst, taken apart: what the sender saw and where the time went. */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServedRecord } from './observer.ts';
import type { Emulators } from './processes.ts';
import { distribution } from './stats.ts';

/**
 * What a burst costs before any app is involved: the emulators' sender posts `count` requests at once
 * (half the burst: Todoist's wave, then Google's) to a server in this process that answers each at
 * once, first on new connections, then on kept-alive ones. The app's acknowledgements cannot be faster.
 */
export async function ackFloor(emulators: Emulators, count: number) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  try {
    const address = server.address() as AddressInfo;
    const url = `http://localhost:${address.port}/webhook`;
    const cold = await emulators.call('burstTo', { url, count: Math.round(count) });
    const warm = await emulators.call('burstTo', { url, count: Math.round(count) });
    return { count: Math.round(count), cold, warm };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/**
 * Splits each acknowledgement the sender timed into the legs outside the app (both processes read the
 * same clock): from the sender's request to the app's server reading it, and from the app's answer to
 * the sender seeing it. What is left is the app's own time.
 */
export function ackLegs(
  deliveries: { key: string | null; start: number; wireStart: number | null; end: number }[],
  served: ServedRecord[],
) {
  const servedByKey = new Map(
    served.flatMap((record) => (record.deliveryKey ? [[record.deliveryKey, record]] : [])),
  );
  const toApp: number[] = [];
  const back: number[] = [];
  const onWire: number[] = [];
  /** From the request on the wire to the app reading it, by the route it came to and the connection. */
  const wireToRead = new Map<string, number[]>();
  for (const delivery of deliveries) {
    const record = delivery.key ? servedByKey.get(delivery.key) : undefined;
    if (!record) continue;
    toApp.push(record.start - delivery.start);
    back.push(delivery.end - record.end);
    if (delivery.wireStart === null) continue;
    onWire.push(record.end - delivery.wireStart);
    const group = `${record.path}, ${record.newConnection ? 'new connection' : 'kept-alive connection'}`;
    wireToRead.set(group, [...(wireToRead.get(group) ?? []), record.start - delivery.wireStart]);
  }
  return {
    matched: toApp.length,
    toApp: distribution(toApp),
    back: distribution(back),
    /** From the request on the wire to the app's answer sent: the sender's own delays left out. */
    onWire: distribution(onWire),
    /**
     * From the request on the wire to the app's server reading it, per route and connection (a wait
     * here with the app's event loop free is outside the app's code: the sockets, the scheduler).
     */
    wireToRead: [...wireToRead].map(([group, times]) => ({ group, ...distribution(times) })),
  };
}
