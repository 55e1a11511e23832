import { useEffect } from 'react';
import { useLocation } from 'react-router';

const WAIT_LIMIT_MS = 10_000;
const POLL_MS = 100;

/** Scrolls to the element named by the URL hash once it exists, waiting up to 10 s for it to render. */
export function useScrollToHash(ready: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    const id = decodeURIComponent(hash.slice(1));
    const started = Date.now();
    const timer = setInterval(() => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ behavior: 'smooth', block: 'start' });
        clearInterval(timer);
      } else if (Date.now() - started > WAIT_LIMIT_MS) {
        clearInterval(timer);
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [hash, ready]);
}
