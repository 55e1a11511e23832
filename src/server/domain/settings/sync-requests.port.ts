/** Asks for the user's next sync run: a setting the sync reads has changed. */
export type SyncRequests = {
  request(userId: string): Promise<void>;
};
