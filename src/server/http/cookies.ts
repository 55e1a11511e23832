import type { CookieSerializeOptions } from '@fastify/cookie';

/** Cookie names and attributes, derived once from whether the app is served over HTTPS. */
export type CookiePolicy = {
  sessionName: string;
  session(expires: Date): CookieSerializeOptions;
  signInFlowName: string;
  signInFlow: CookieSerializeOptions;
  /** The flow of connecting Todoist or a calendar; same attributes as the sign-in flow, its own name. */
  connectFlowName: string;
  clear(path: string): CookieSerializeOptions;
};

const SIGN_IN_FLOW_MAX_AGE_S = 10 * 60;

export function createCookiePolicy(appUrl: string): CookiePolicy {
  const secure = appUrl.startsWith('https://');
  return {
    // The __Host- prefix pins the cookie to this exact origin, but browsers accept it only when Secure.
    sessionName: secure ? '__Host-sid' : 'sid',
    session: (expires) => ({ httpOnly: true, sameSite: 'lax', secure, path: '/', expires }),
    signInFlowName: secure ? '__Secure-signin' : 'signin',
    // Lax, because the provider sends the browser back to us with a cross-site top-level GET.
    signInFlow: {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/auth',
      maxAge: SIGN_IN_FLOW_MAX_AGE_S,
      signed: true,
    },
    connectFlowName: secure ? '__Secure-connect' : 'connect',
    clear: (path) => ({ httpOnly: true, sameSite: 'lax', secure, path }),
  };
}
