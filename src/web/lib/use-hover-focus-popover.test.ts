import { describe, expect, it } from 'vitest';
import {
  closedHoverFocus,
  type HoverFocusEvent,
  type HoverFocusState,
  hoverFocusReducer,
  isHoverFocusOpen,
} from './use-hover-focus-popover.ts';

const run = (...events: HoverFocusEvent[]): HoverFocusState =>
  events.reduce(hoverFocusReducer, closedHoverFocus);

const enterTarget: HoverFocusEvent = { type: 'pointer', over: 'target', inside: true };
const leaveTarget: HoverFocusEvent = { type: 'pointer', over: 'target', inside: false };
const enterDropdown: HoverFocusEvent = { type: 'pointer', over: 'dropdown', inside: true };
const leaveDropdown: HoverFocusEvent = { type: 'pointer', over: 'dropdown', inside: false };
const focus: HoverFocusEvent = { type: 'focus', returnedFromDropdown: false };
const focusBack: HoverFocusEvent = { type: 'focus', returnedFromDropdown: true };
const blur: HoverFocusEvent = { type: 'blur' };
const activate: HoverFocusEvent = { type: 'activate' };
const dismiss: HoverFocusEvent = { type: 'dismiss' };

describe('hoverFocusReducer', () => {
  it('starts closed', () => {
    expect(isHoverFocusOpen(closedHoverFocus)).toBe(false);
  });

  it('shows while the target or the dropdown is hovered', () => {
    expect(isHoverFocusOpen(run(enterTarget))).toBe(true);
    expect(isHoverFocusOpen(run(enterTarget, enterDropdown, leaveTarget))).toBe(true);
    expect(isHoverFocusOpen(run(enterTarget, enterDropdown, leaveTarget, leaveDropdown))).toBe(false);
  });

  it('shows while the target has the focus, without taking it', () => {
    const focused = run(focus);
    expect(isHoverFocusOpen(focused)).toBe(true);
    expect(focused.pinned).toBe(false);
    expect(isHoverFocusOpen(run(focus, blur))).toBe(false);
  });

  it('a click, Enter or Space keeps it open after pointer and focus have left', () => {
    const pinned = run(enterTarget, focus, activate, blur, leaveTarget);
    expect(pinned.pinned).toBe(true);
    expect(isHoverFocusOpen(pinned)).toBe(true);
  });

  it('activating it from closed opens it at once (keyboard, or a tap on a touch screen)', () => {
    expect(isHoverFocusOpen(run(activate))).toBe(true);
  });

  it('a second activation closes it, even with the pointer still on the target', () => {
    const closed = run(enterTarget, focus, activate, blur, focusBack, activate);
    expect(isHoverFocusOpen(closed)).toBe(false);
  });

  it('Escape closes it and focus coming back from the dropdown does not reopen it', () => {
    const afterEscape = run(focus, activate, blur, dismiss, focusBack);
    expect(isHoverFocusOpen(afterEscape)).toBe(false);
    expect(isHoverFocusOpen(hoverFocusReducer(afterEscape, activate))).toBe(true);
  });

  it('Escape hides the hover view until the pointer leaves and comes back', () => {
    const dismissed = run(enterTarget, dismiss);
    expect(isHoverFocusOpen(dismissed)).toBe(false);
    expect(isHoverFocusOpen(run(enterTarget, dismiss, leaveTarget, enterTarget))).toBe(true);
  });

  it('a click elsewhere closes it, and the next focus shows it again', () => {
    const outside = run(activate, dismiss);
    expect(isHoverFocusOpen(outside)).toBe(false);
    expect(isHoverFocusOpen(hoverFocusReducer(outside, focus))).toBe(true);
  });
});
