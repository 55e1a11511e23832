import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { generate } from 'selfsigned';

/**
 * The Graph SDK only sends the bearer token over https, so the Microsoft emulator needs a
 * certificate the product trusts. We make a local CA once and a `localhost` server certificate it
 * signs, and keep both as PEM files so that restarts (and `NODE_EXTRA_CA_CERTS`) keep working.
 */
export const DEFAULT_CERTIFICATE_DIR = '.data/certs';

export type LocalCertificate = {
  /** Path of the CA certificate: the file to give `NODE_EXTRA_CA_CERTS`. */
  caPath: string;
  caPem: string;
  /** Server key and certificate for `https: { key, cert }`. */
  key: string;
  cert: string;
};

const FILES = {
  caCert: 'timeboxer-local-ca.pem',
  caKey: 'timeboxer-local-ca.key',
  cert: 'localhost.pem',
  key: 'localhost.key',
} as const;
const HOST_NAMES = ['localhost'];
const IP_ADDRESSES = ['127.0.0.1', '::1'];
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

/** Reads the cached CA and server certificate from `dir`, or creates them when missing or stale. */
export async function ensureLocalCertificate(
  dir: string = DEFAULT_CERTIFICATE_DIR,
): Promise<LocalCertificate> {
  const directory = resolve(dir);
  await mkdir(directory, { recursive: true });
  const path = (name: keyof typeof FILES) => join(directory, FILES[name]);
  const cached = await readCached(path);
  if (cached) return cached;

  const notBeforeDate = new Date(Date.now() - 60_000);
  // A name of its own: TLS finds a certificate's issuer by name, so two CAs of one name trusted in one
  // process (two certificate folders, as the tests make) would check one's certificates with the other.
  const caName = `Timeboxer Local Development CA ${randomBytes(4).toString('hex')}`;
  const ca = await generate([{ name: 'commonName', value: caName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 10 * 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    // Well under the 398 days browsers accept for a server certificate.
    notAfterDate: new Date(notBeforeDate.getTime() + 365 * 24 * 3600 * 1000),
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...HOST_NAMES.map((value) => ({ type: 2 as const, value })),
          ...IP_ADDRESSES.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  await writeAtomically(path('caKey'), ca.private, 0o600);
  await writeAtomically(path('key'), server.private, 0o600);
  await writeAtomically(path('cert'), server.cert, 0o644);
  // The CA certificate goes last: its presence marks a complete set.
  await writeAtomically(path('caCert'), ca.cert, 0o644);
  return { caPath: path('caCert'), caPem: ca.cert, key: server.private, cert: server.cert };
}

async function readCached(path: (name: keyof typeof FILES) => string): Promise<LocalCertificate | undefined> {
  try {
    const [caPem, cert, key] = await Promise.all([
      readFile(path('caCert'), 'utf8'),
      readFile(path('cert'), 'utf8'),
      readFile(path('key'), 'utf8'),
    ]);
    const caX509 = new X509Certificate(caPem);
    const serverX509 = new X509Certificate(cert);
    const usable =
      serverX509.checkIssued(caX509) &&
      serverX509.verify(caX509.publicKey) &&
      HOST_NAMES.every((name) => serverX509.checkHost(name) !== undefined) &&
      IP_ADDRESSES.every((ip) => serverX509.checkIP(ip) !== undefined) &&
      Date.parse(serverX509.validTo) - Date.now() > RENEW_BEFORE_MS &&
      Date.parse(caX509.validTo) - Date.now() > RENEW_BEFORE_MS &&
      serverX509.checkPrivateKey(createPrivateKey(key));
    return usable ? { caPath: path('caCert'), caPem, key, cert } : undefined;
  } catch {
    return undefined;
  }
}

async function writeAtomically(file: string, content: string, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode });
  await rename(temporary, file);
}

/**
 * Makes this process trust `caPem` for every later TLS connection, global `fetch` (undici)
 * included. Node reads `NODE_EXTRA_CA_CERTS` only at start-up; `tls.setDefaultCACertificates`
 * (Node 22.19 / 24.5 and newer) replaces the default store at run time, so we pass the current
 * store plus the CA. Calling it again with the same CA changes nothing.
 */
export function trustCertificate(caPem: string): void {
  const normalize = (pem: string) => pem.replace(/\s+/g, '');
  const current = getCACertificates('default');
  if (current.some((pem) => normalize(pem) === normalize(caPem))) return;
  setDefaultCACertificates([...current, caPem]);
}
