/**
 * Scrolls a dashboard section (or control) into view and moves the keyboard focus there, so that a button
 * that sends the user to it ("Add a timebox setting") lands them where the next Tab acts. A section that is
 * not focusable itself becomes focusable by script only (tabindex -1).
 */
export function goToSection(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  target.focus({ preventScroll: true });
  return true;
}
