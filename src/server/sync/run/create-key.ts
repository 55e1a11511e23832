import { createHash } from 'node:crypto';

/** A key that is the same on every attempt at one create: the link and which of its events it is. */
export const createKey = (linkId: string, generation: number) =>
  createHash('sha256').update(`${linkId}:${generation}`).digest('hex').slice(0, 32);

/** A create's key as a Todoist command uuid: the same key, the same command. */
export const commandUuidOf = (key: string) =>
  `${key.slice(0, 8)}-${key.slice(8, 12)}-4${key.slice(13, 16)}-8${key.slice(17, 20)}-${key.slice(20, 32)}`;
