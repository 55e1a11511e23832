/** An OAuth error answer: HTTP status, the `error` code and its description. Providers subclass it. */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
  }
}

/** What the kit found wrong with a token request; each provider words it (status, code, text) its own way. */
export type TokenFailure =
  | { kind: 'missing_parameter'; name: string }
  | { kind: 'unsupported_grant_type'; grantType: string }
  | { kind: 'client_id_missing' }
  | { kind: 'client_id_conflict' }
  | { kind: 'client_unknown'; clientId: string }
  | { kind: 'client_secret_missing' }
  | { kind: 'client_secret_wrong' }
  | { kind: 'code_used' }
  | { kind: 'code_expired' }
  /** Unknown, or issued to another client. */
  | { kind: 'code_invalid' }
  | { kind: 'redirect_uri_mismatch'; given: string; expected: string }
  | { kind: 'verifier_missing' }
  | { kind: 'verifier_mismatch' }
  /** A `code_verifier` for a code issued without a challenge. */
  | { kind: 'verifier_unrequested' }
  | { kind: 'refresh_token_revoked' }
  | { kind: 'refresh_token_invalid' }
  | { kind: 'refresh_token_other_client' };

export type WordFailure<E extends OAuthError> = (failure: TokenFailure) => E;
