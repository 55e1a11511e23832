import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { showToast } from '../../lib/toast.tsx';
import { connectResult, connectToast, withoutConnectParams } from './connect-result.ts';

/** Back from a provider's consent page: say how it went, then clean the address bar. */
export function useConnectToast() {
  const [params, setParams] = useSearchParams();
  const shown = useRef(false);

  useEffect(() => {
    const result = connectResult(params);
    if (!result || shown.current) return;
    shown.current = true;
    showToast(result.kind === 'connected' ? 'success' : 'error', {
      id: 'connect-result',
      ...connectToast(result),
    });
    setParams(withoutConnectParams(params), { replace: true });
  }, [params, setParams]);
}
