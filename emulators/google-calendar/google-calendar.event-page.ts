import type { FastifyInstance } from 'fastify';
import { escapeHtml, renderHtmlPage } from '../shared/html-page.ts';
import { readParams } from '../shared/params.ts';
import { renderErrorPage } from '../shared/sign-in-page.ts';
import { type CalendarStore, eventIn } from './google-calendar.store.ts';

const TITLE = 'Google Calendar (sandbox)';

/** Where an event's `htmlLink` leads: a read-only view of the event. */
export function registerEventPage(app: FastifyInstance, store: CalendarStore): void {
  app.get('/calendar/event', async (request, reply) => {
    const eid = readParams(request.query).eid ?? '';
    const [eventId = '', calendarId = ''] = Buffer.from(eid, 'base64url').toString('utf8').split(' ');
    const calendar = store.calendar(calendarId);
    const event = calendar && eventIn(calendar, eventId);
    reply.type('text/html; charset=utf-8');
    if (!event) {
      const html = renderErrorPage({
        brand: 'google',
        title: TITLE,
        heading: 'Not found',
        message: 'This event does not exist.',
      });
      return reply.code(404).send(html);
    }
    const { data } = event;
    const when = (time: typeof data.start) => escapeHtml(time.dateTime ?? time.date ?? '');
    return renderHtmlPage({
      title: TITLE,
      style: 'body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; }',
      main: `<h1>${escapeHtml(data.summary ?? '(No title)')}</h1>
    <p>${when(data.start)} – ${when(data.end)}</p>
    <p>Status: ${escapeHtml(data.status)}</p>
    ${data.description ? `<p style="white-space: pre-wrap">${escapeHtml(data.description)}</p>` : ''}`,
    });
  });
}
