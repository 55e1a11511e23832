/**
 * Time helpers. "Wall" times (a calendar date and clock time without a zone) are carried in Date
 * objects whose UTC fields hold the wall fields, so day arithmetic never crosses a DST change.
 */

import { formatOffset, instantOfWallClockMs, offsetMinutes, wallClockMs } from '../shared/wall-clock.ts';

export type Clock = {
  now(): Date;
  /** A Todoist timestamp (`2025-02-10T10:33:38.123456Z`), strictly increasing across calls. */
  stamp(): string;
};

export function createClock(now: () => Date = () => new Date()): Clock {
  let lastMicros = 0;
  return {
    now,
    stamp() {
      const micros = Math.max(now().getTime() * 1000, lastMicros + 1);
      lastMicros = micros;
      const millis = Math.floor(micros / 1000);
      const iso = new Date(millis).toISOString().slice(0, 19);
      return `${iso}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
    },
  };
}

/** The wall time in `timeZone` at `instant`. */
export function toWall(instant: Date, timeZone: string): Date {
  return new Date(wallClockMs(instant.getTime(), timeZone));
}

/** The instant at which the wall clock in `timeZone` shows `wall`. */
export function fromWall(wall: Date, timeZone: string): Date {
  return new Date(instantOfWallClockMs(wall.getTime(), timeZone));
}

export function addDays(wall: Date, days: number): Date {
  const next = new Date(wall.getTime());
  next.setUTCDate(next.getUTCDate() + days);
  return next;
}

export function formatDate(wall: Date): string {
  return wall.toISOString().slice(0, 10);
}

export function formatFloating(wall: Date): string {
  return wall.toISOString().slice(0, 19);
}

export function formatUtc(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** The user's `tz_info` as Todoist reports it. */
export function tzInfo(timeZone: string, instant: Date) {
  const offset = offsetMinutes(instant.getTime(), timeZone);
  const year = instant.getUTCFullYear();
  const standard = Math.min(
    offsetMinutes(Date.UTC(year, 0, 1), timeZone),
    offsetMinutes(Date.UTC(year, 6, 1), timeZone),
  );
  return {
    gmt_string: formatOffset(offset),
    hours: Math.trunc(offset / 60),
    is_dst: offset > standard ? 1 : 0,
    minutes: Math.abs(offset) % 60,
    timezone: timeZone,
  };
}
