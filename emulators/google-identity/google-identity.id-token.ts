import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export type IdTokenSigner = {
  jwks: { keys: JWK[] };
  sign(claims: Record<string, unknown>): Promise<string>;
};

/** A fresh RS256 key pair per emulator start; clients read the public half from the JWKS endpoint. */
export async function createIdTokenSigner(): Promise<IdTokenSigner> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    jwks: { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] },
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey),
  };
}

/** OIDC `at_hash`: the left half of the SHA-256 of the access token, base64url. */
export function accessTokenHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
