/** Push-notification channels (events.watch). A channel is live until it expires or is stopped. */
export type Channel = {
  id: string;
  resourceId: string;
  resourceUri: string;
  token: string | undefined;
  address: string;
  expirationMs: number;
  calendarId: string;
  email: string;
  clientId: string;
  createdAt: string;
  stoppedAt: string | undefined;
  /** The last X-Goog-Message-Number sent on this channel (1 is the `sync` message). */
  messageNumber: number;
};

export class ChannelStore {
  #channels = new Map<string, Channel>();
  /**
   * The ids of each calendar's channels (live or not), so that a change to a calendar finds its watchers
   * without going through every channel (the benchmark watches thousands of calendars).
   */
  #idsByCalendar = new Map<string, Set<string>>();
  /** Where each id stands in `#channels`, which keeps that place when a dead channel's id is reused. */
  #positions = new Map<string, number>();

  isLive(channel: Channel): boolean {
    return channel.stoppedAt === undefined && channel.expirationMs > Date.now();
  }

  find(id: string): Channel | undefined {
    return this.#channels.get(id);
  }

  /** Ids are unique among live channels; a stopped or expired channel's id may be reused. */
  create(channel: Omit<Channel, 'createdAt' | 'stoppedAt' | 'messageNumber'>): Channel | undefined {
    const existing = this.#channels.get(channel.id);
    if (existing && this.isLive(existing)) return undefined;
    const created = {
      ...channel,
      createdAt: new Date().toISOString(),
      stoppedAt: undefined,
      messageNumber: 0,
    };
    if (existing) this.#idsByCalendar.get(existing.calendarId)?.delete(existing.id);
    else this.#positions.set(created.id, this.#positions.size);
    this.#channels.set(created.id, created);
    const ids = this.#idsByCalendar.get(created.calendarId) ?? new Set();
    this.#idsByCalendar.set(created.calendarId, ids.add(created.id));
    return created;
  }

  /** The calendar's live channels, in the order of `#channels` (as the state view lists them). */
  live(calendarId: string): Channel[] {
    const position = (channel: Channel) => this.#positions.get(channel.id) ?? 0;
    return [...(this.#idsByCalendar.get(calendarId) ?? [])]
      .flatMap((id) => this.#channels.get(id) ?? [])
      .filter((channel) => this.isLive(channel))
      .sort((a, b) => position(a) - position(b));
  }

  stop(channel: Channel): void {
    channel.stoppedAt = new Date().toISOString();
  }

  expireNow(channel: Channel): void {
    channel.expirationMs = Math.min(channel.expirationMs, Date.now() - 1);
  }

  /** Live channels, all or those of one id or calendar (for the control routes). */
  liveMatching(filter: { id?: string; calendarId?: string }): Channel[] {
    return [...this.#channels.values()].filter(
      (channel) =>
        this.isLive(channel) &&
        (filter.id === undefined || channel.id === filter.id) &&
        (filter.calendarId === undefined || channel.calendarId === filter.calendarId),
    );
  }

  /** Brings the expiry forward to `atMs` (never pushes it back): a channel near the end of its life. */
  age(channel: Channel, atMs: number): void {
    channel.expirationMs = Math.min(channel.expirationMs, atMs);
  }

  reset(): void {
    this.#channels.clear();
    this.#idsByCalendar.clear();
    this.#positions.clear();
  }

  snapshot() {
    return [...this.#channels.values()].map((channel) => ({
      ...channel,
      expiration: new Date(channel.expirationMs).toISOString(),
      live: this.isLive(channel),
    }));
  }
}
