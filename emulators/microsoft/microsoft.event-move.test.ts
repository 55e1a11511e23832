import type { Client } from '@microsoft/microsoft-graph-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import {
  caught,
  control,
  flushNotifications,
  graphClient,
  notificationBodies,
  startMicrosoftEmulator,
  startReceiver,
  subscribeTo,
  timeboxerCalendar,
  tokensFor,
} from './microsoft.testing.ts';

/**
 * The user moves an event to another calendar in Outlook (`POST /_emulator/events/:id/move`): a new id
 * in the destination, the old id `@removed` in the source's delta, both calendars' subscriptions told.
 * Observed through the official SDK, as the app reads it. docs/provider-facts.md §11.
 */

const TAG = 'String {66f5a359-4659-4830-9070-00047ec6ac6e} Name TimeboxerTaskId';
const EXPAND = `singleValueExtendedProperties($filter=id eq '${TAG}')`;
const WINDOW = { startDateTime: '2030-05-01T00:00:00Z', endDateTime: '2030-06-01T00:00:00Z' };

let origin: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: Client;
let timeboxer: string;
let other: string;

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  ({ client, calendarId: timeboxer } = await timeboxerCalendar(origin));
  const calendars: { id: string }[] = (await client.api('/me/calendars').get()).value;
  other = calendars.find((calendar) => calendar.id !== timeboxer)?.id ?? '';
});

const createTagged = () =>
  client.api(`/me/calendars/${timeboxer}/events`).post({
    subject: 'Review PR',
    start: { dateTime: '2030-05-06T09:00:00', timeZone: 'UTC' },
    end: { dateTime: '2030-05-06T10:00:00', timeZone: 'UTC' },
    categories: ['Blue category'],
    transactionId: 'timeboxer:123:key',
    singleValueExtendedProperties: [{ id: TAG, value: '123' }],
  });

const move = async (eventId: string, destinationId: string, extendedProperties?: 'kept' | 'dropped') => {
  const response = await control(origin, `events/${eventId}/move`, { destinationId, extendedProperties });
  return { status: response.status, body: (await response.json()) as { id: string; previousId: string } };
};

async function deltaRound(calendarId: string, link?: string) {
  let page = link
    ? await client.api(link).get()
    : await client.api(`/me/calendars/${calendarId}/calendarView/delta`).query(WINDOW).get();
  const items: Record<string, unknown>[] = [...page.value];
  while (page['@odata.nextLink']) {
    page = await client.api(page['@odata.nextLink']).get();
    items.push(...page.value);
  }
  return { items, deltaLink: page['@odata.deltaLink'] as string };
}

describe('the user moves an event to another calendar', () => {
  it('gives it a new id there, with its fields, extended properties and iCalUId; the old id is gone', async () => {
    const event = await createTagged();
    const { status, body } = await move(event.id, other);
    expect(status).toBe(200);
    expect(body.previousId).toBe(event.id);
    expect(body.id).not.toBe(event.id);

    const moved = await client.api(`/me/calendars/${other}/events/${body.id}`).expand(EXPAND).get();
    expect(moved).toMatchObject({
      id: body.id,
      subject: 'Review PR',
      categories: ['Blue category'],
      iCalUId: event.iCalUId,
      transactionId: 'timeboxer:123:key',
      singleValueExtendedProperties: [{ id: TAG, value: '123' }],
    });
    expect(moved.changeKey).not.toBe(event.changeKey);
    expect(await caught(client.api(`/me/events/${event.id}`).get())).toMatchObject({ statusCode: 404 });
    const left = (await client.api(`/me/calendars/${timeboxer}/events`).get()).value;
    expect(left).toEqual([]);
  });

  it('reports the old id @removed in the source delta and the new one in the destination delta', async () => {
    const event = await createTagged();
    const source = await deltaRound(timeboxer);
    const destination = await deltaRound(other);
    expect(source.items.map((item) => item.id)).toEqual([event.id]);

    const { body } = await move(event.id, other);
    const sourceAfter = await deltaRound(timeboxer, source.deltaLink);
    expect(sourceAfter.items).toEqual([
      { '@odata.type': '#microsoft.graph.event', id: event.id, '@removed': { reason: 'deleted' } },
    ]);
    const destinationAfter = await deltaRound(other, destination.deltaLink);
    expect(destinationAfter.items).toMatchObject([{ id: body.id, subject: 'Review PR' }]);
  });

  it('moved back, it gets a third id in the calendar it came from, its properties still with it', async () => {
    const event = await createTagged();
    const source = await deltaRound(timeboxer);
    const out = await move(event.id, other);
    const back = await move(out.body.id, timeboxer);
    expect(new Set([event.id, out.body.id, back.body.id]).size).toBe(3);
    const again = await deltaRound(timeboxer, source.deltaLink);
    expect(again.items.map((item) => [item.id, item['@removed'] ? 'removed' : 'live'])).toEqual([
      [event.id, 'removed'],
      [back.body.id, 'live'],
    ]);
    const read = await client.api(`/me/events/${back.body.id}`).expand(EXPAND).get();
    expect(read.singleValueExtendedProperties).toEqual([{ id: TAG, value: '123' }]);
  });

  it('drops the extended properties and transaction id when told to (the other reading)', async () => {
    const event = await createTagged();
    const { body } = await move(event.id, other, 'dropped');
    const read = await client.api(`/me/events/${body.id}`).expand(EXPAND).get();
    expect(read.singleValueExtendedProperties ?? []).toEqual([]);
    expect(read.transactionId ?? null).toBeNull();
  });

  it('tells the subscriptions of both calendars: deleted in the source, created in the destination', async () => {
    const event = await createTagged();
    const onSource = await subscribeTo(client, receiver, timeboxer);
    const onDestination = await subscribeTo(client, receiver, other);
    await flushNotifications(origin);
    receiver.received.length = 0;

    const { body } = await move(event.id, other);
    await flushNotifications(origin);
    const seen = notificationBodies(receiver, '/webhooks/microsoft').flatMap((b) => b.value);
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          subscriptionId: onSource.id,
          changeType: 'deleted',
          resourceData: expect.objectContaining({ id: event.id }),
        }),
        expect.objectContaining({
          subscriptionId: onDestination.id,
          changeType: 'created',
          resourceData: expect.objectContaining({ id: body.id }),
        }),
      ]),
    );
    expect(seen).toHaveLength(2);
  });

  it('404 for an unknown event or a calendar of another mailbox, 400 for the same calendar, 403 read only', async () => {
    const event = await createTagged();
    expect((await move('AAMkAGnothing', other)).status).toBe(404);
    const grace = graphClient(origin, (await tokensFor(origin, 'grace.hopper@example.com')).access_token);
    const theirs: { id: string }[] = (await grace.api('/me/calendars').get()).value;
    expect((await move(event.id, theirs[0]?.id ?? '')).status).toBe(404);
    const shared = await control(origin, 'calendars/shared', {
      email: 'ada.lovelace@example.com',
      name: 'Kids parties',
      canEdit: false,
    });
    const readOnly = ((await shared.json()) as { id: string }).id;
    expect((await move(event.id, 'not-a-calendar')).status).toBe(404);
    expect((await move(event.id, timeboxer)).status).toBe(400);
    expect((await move(event.id, readOnly)).status).toBe(403);
    expect((await client.api(`/me/events/${event.id}`).get()).id).toBe(event.id);
  });
});
