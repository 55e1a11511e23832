import { useEffect } from 'react';
import { useConsent } from '../../lib/consent-store.ts';
import { usePublicConfig } from '../../lib/public-config.ts';

/**
 * Loads the configured third-party scripts only as far as the visitor's choice allows: the chat
 * widget once a choice is made, the analytics tracker only with analytical consent.
 */
export function ThirdPartyScripts() {
  const consent = useConsent();
  const config = usePublicConfig().data;
  useScript(consent.isSet ? config?.chatWidgetScriptUrl : null, 'chat-widget');
  useScript(consent.isSet && consent.analytical ? config?.analyticsScriptUrl : null, 'analytics');
  return null;
}

function useScript(src: string | null | undefined, id: string) {
  useEffect(() => {
    if (!src || document.getElementById(`third-party-${id}`)) return;
    const script = document.createElement('script');
    script.id = `third-party-${id}`;
    script.src = src;
    script.async = true;
    document.head.appendChild(script);
  }, [src, id]);
}
