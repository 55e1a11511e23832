import { useEffect, useMemo, useReducer } from 'react';

/**
 * The dashboard's one confirmation of a saved setting (docs/product-rules.md §4): after every save the
 * card says "Saved" for a few seconds, or, when the save failed, says so until the next try. A single
 * control (switch, select, radio, checkbox) saves on change; a form of several fields saves with its
 * Save button; both report here. A change previewed first is saved, and so reported, only once the
 * preview is confirmed: a cancelled preview reports nothing.
 */

export const SAVED_TEXT = 'Saved';
export const SAVE_FAILED_TEXT = 'Could not save. Please try again.';
/** How long "Saved" stays before it fades; an error stays until the next save starts. */
export const SAVED_VISIBLE_MS = 3000;
/** How long "Saved" takes to fade out, after which it is gone from the page. */
export const SAVED_FADE_MS = 400;

/** 'fading': "Saved" is still in the page, turning transparent. */
export type SaveStatusShown = 'none' | 'saved' | 'fading' | 'error';

export type SaveStatusState = {
  /** Saves started and not answered yet. */
  pending: number;
  /** One of the saves answered since the last quiet moment failed. */
  failed: boolean;
  shown: SaveStatusShown;
  /** Counts what was shown, so that a timer set for an older "Saved" leaves a newer one alone. */
  shownCount: number;
};

export type SaveStatusEvent =
  | { type: 'start' }
  | { type: 'succeed' }
  | { type: 'fail' }
  | { type: 'fade'; shownCount: number }
  | { type: 'clear'; shownCount: number };

export const initialSaveStatus: SaveStatusState = {
  pending: 0,
  failed: false,
  shown: 'none',
  shownCount: 0,
};

/**
 * Saves may overlap (two switches of one card flipped quickly): the card answers once the last of them
 * is answered, "Saved" only when none of them failed. An answer of a save never counted as started (a
 * dialog's save, which reports only how it ended) is shown at once.
 */
export function saveStatusReducer(state: SaveStatusState, event: SaveStatusEvent): SaveStatusState {
  switch (event.type) {
    case 'start':
      // A new try hides the last answer, so an old "Saved" never stands for the change under way.
      return {
        ...state,
        pending: state.pending + 1,
        failed: state.pending === 0 ? false : state.failed,
        shown: 'none',
      };
    case 'succeed':
    case 'fail': {
      const failed = state.failed || event.type === 'fail';
      const pending = Math.max(0, state.pending - 1);
      if (pending > 0) return { ...state, pending, failed };
      return {
        pending: 0,
        failed: false,
        shown: failed ? 'error' : 'saved',
        shownCount: state.shownCount + 1,
      };
    }
    case 'fade':
      if (state.shown !== 'saved' || state.shownCount !== event.shownCount) return state;
      return { ...state, shown: 'fading' };
    case 'clear':
      if (state.shown !== 'fading' || state.shownCount !== event.shownCount) return state;
      return { ...state, shown: 'none' };
  }
}

/**
 * The timer the state asks for: "Saved" fades after a few seconds, then leaves the page; null when
 * nothing is to happen by itself (saving, a failure, nothing shown). Plain timers, not animation frames,
 * so it also ends in a tab in the background.
 */
export function nextTimer(state: SaveStatusState): { event: SaveStatusEvent; afterMs: number } | null {
  const { shown, shownCount } = state;
  if (shown === 'saved') return { event: { type: 'fade', shownCount }, afterMs: SAVED_VISIBLE_MS };
  if (shown === 'fading') return { event: { type: 'clear', shownCount }, afterMs: SAVED_FADE_MS };
  return null;
}

/** What a save tells the card it belongs to (`useUserChange`'s `status` option). */
export type SaveReporter = { start: () => void; succeed: () => void; fail: () => void };

export type SaveStatus = SaveReporter & { shown: SaveStatusShown };

/** The state of one card's confirmation, shown by `<SaveStatus />` (components/save-status.tsx). */
export function useSaveStatus(): SaveStatus {
  const [state, dispatch] = useReducer(saveStatusReducer, initialSaveStatus);
  const { shown, shownCount } = state;
  useEffect(() => {
    const next = nextTimer({ ...initialSaveStatus, shown, shownCount });
    if (!next) return;
    const timer = setTimeout(() => dispatch(next.event), next.afterMs);
    return () => clearTimeout(timer);
  }, [shown, shownCount]);
  const reporter = useMemo<SaveReporter>(
    () => ({
      start: () => dispatch({ type: 'start' }),
      succeed: () => dispatch({ type: 'succeed' }),
      fail: () => dispatch({ type: 'fail' }),
    }),
    [],
  );
  return { ...reporter, shown: state.shown };
}

const nothing = () => {};

/**
 * Only a success reaches the card: a dialog's save, whose failure the dialog itself shows while it
 * stays open; once it closes on success, the card says "Saved".
 */
export function successesOnly(status: SaveReporter): SaveReporter {
  return { start: nothing, succeed: status.succeed, fail: nothing };
}

/**
 * Only a failure reaches the card: a save that is a step of a larger change (the working hours saved
 * before the Plan my day preview), which says "Saved" only when the whole change is confirmed.
 */
export function failuresOnly(status: SaveReporter): SaveReporter {
  return { start: nothing, succeed: nothing, fail: status.fail };
}
