/** The sides of a sync: what changed, what a run reads. */
export type SyncSide = 'todoist' | 'calendar';
export const BOTH_SIDES: readonly SyncSide[] = ['todoist', 'calendar'];

/** Removals the safety brake holds back (0: none). */
export const heldCount = (state: { heldEvents: number; heldTasks: number }) =>
  state.heldEvents + state.heldTasks;
