import { type FocusEvent, type KeyboardEvent, useEffect, useReducer, useRef } from 'react';

/**
 * A popover that shows while its target is hovered or focused, and stays open once the target is
 * clicked (or activated with Enter or Space) until it is clicked again, Escape is pressed, or the
 * person clicks elsewhere. Escape also hides the hover or focus view (WCAG 1.4.13: dismissible).
 */
export type HoverFocusState = {
  /** Opened by a click, Enter or Space: stays open, and takes the focus. */
  pinned: boolean;
  overTarget: boolean;
  overDropdown: boolean;
  focused: boolean;
  /** Closed by the person while the pointer or focus is still there: stays closed until both leave. */
  dismissed: boolean;
};

export type HoverFocusEvent =
  | { type: 'pointer'; over: 'target' | 'dropdown'; inside: boolean }
  | { type: 'focus'; returnedFromDropdown: boolean }
  | { type: 'blur' }
  | { type: 'activate' }
  | { type: 'dismiss' };

export const closedHoverFocus: HoverFocusState = {
  pinned: false,
  overTarget: false,
  overDropdown: false,
  focused: false,
  dismissed: false,
};

export function isHoverFocusOpen(state: HoverFocusState): boolean {
  return state.pinned || (!state.dismissed && (state.overTarget || state.overDropdown || state.focused));
}

const lingering = (state: HoverFocusState) => state.overTarget || state.overDropdown || state.focused;

/** Once neither pointer nor focus is left, a dismissal is forgotten: the next hover or focus shows again. */
const settle = (state: HoverFocusState): HoverFocusState =>
  state.dismissed && !lingering(state) ? { ...state, dismissed: false } : state;

export function hoverFocusReducer(state: HoverFocusState, event: HoverFocusEvent): HoverFocusState {
  switch (event.type) {
    case 'pointer':
      return settle(
        event.over === 'target'
          ? { ...state, overTarget: event.inside }
          : { ...state, overDropdown: event.inside },
      );
    case 'focus':
      // Focus coming back from the dropdown (Escape, or a click on the target) does not reopen it.
      return { ...state, focused: true, dismissed: state.dismissed || event.returnedFromDropdown };
    case 'blur':
      return settle({ ...state, focused: false });
    case 'activate':
      return state.pinned
        ? { ...state, pinned: false, dismissed: true }
        : { ...state, pinned: true, dismissed: false };
    case 'dismiss':
      return settle({ ...state, pinned: false, dismissed: true });
  }
}

/** Leaving the target or the dropdown closes only after this, so the pointer can cross the gap between them. */
const LEAVE_DELAY_MS = 150;

export function useHoverFocusPopover() {
  const [state, dispatch] = useReducer(hoverFocusReducer, closedHoverFocus);
  const dropdownRef = useRef<HTMLDivElement>(null);
  const leaveTimers = useRef<Record<'target' | 'dropdown', number | undefined>>({
    target: undefined,
    dropdown: undefined,
  });

  useEffect(() => {
    const timers = leaveTimers.current;
    return () => {
      window.clearTimeout(timers.target);
      window.clearTimeout(timers.dropdown);
    };
  }, []);

  const enter = (over: 'target' | 'dropdown') => {
    window.clearTimeout(leaveTimers.current[over]);
    dispatch({ type: 'pointer', over, inside: true });
  };
  const leave = (over: 'target' | 'dropdown') => {
    window.clearTimeout(leaveTimers.current[over]);
    leaveTimers.current[over] = window.setTimeout(
      () => dispatch({ type: 'pointer', over, inside: false }),
      LEAVE_DELAY_MS,
    );
  };

  return {
    opened: isHoverFocusOpen(state),
    pinned: state.pinned,
    /** For the Popover's onChange: Escape inside the dropdown, or a click outside. */
    onChange: (opened: boolean) => {
      if (!opened) dispatch({ type: 'dismiss' });
    },
    targetProps: {
      onClick: () => dispatch({ type: 'activate' }),
      onMouseEnter: () => enter('target'),
      onMouseLeave: () => leave('target'),
      onFocus: (event: FocusEvent<HTMLElement>) => {
        const from = event.relatedTarget;
        const returnedFromDropdown = from instanceof Node && !!dropdownRef.current?.contains(from);
        dispatch({ type: 'focus', returnedFromDropdown });
      },
      onBlur: () => dispatch({ type: 'blur' }),
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        if (event.key === 'Escape' && isHoverFocusOpen(state)) {
          event.stopPropagation();
          dispatch({ type: 'dismiss' });
        }
      },
    },
    dropdownProps: {
      ref: dropdownRef,
      onMouseEnter: () => enter('dropdown'),
      onMouseLeave: () => leave('dropdown'),
    },
  };
}
