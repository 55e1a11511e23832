import { randomAlphanumeric } from '../shared/ids.ts';

export type GraphErrorDetails = {
  message: string;
  code: number;
  type?: string;
  subcode?: number;
};

/** Graph API error body: `{"error":{"message","type","code","error_subcode"?,"fbtrace_id"}}`. */
export function graphError(details: GraphErrorDetails) {
  return {
    error: {
      message: details.message,
      type: details.type ?? 'OAuthException',
      code: details.code,
      ...(details.subcode === undefined ? {} : { error_subcode: details.subcode }),
      fbtrace_id: randomAlphanumeric(23),
    },
  };
}
