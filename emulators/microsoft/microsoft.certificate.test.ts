import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLocalCertificate, type LocalCertificate, trustCertificate } from './microsoft.certificate.ts';

const run = promisify(execFile);
const CHILD_FETCH = `fetch(process.argv[1]).then(async (r) => console.log('status ' + r.status + ' ' + (await r.text())), (e) => console.log('error ' + (e.cause?.code ?? e.message)))`;

/** A plain `fetch` in a fresh Node process, optionally with NODE_EXTRA_CA_CERTS. */
async function fetchInChild(url: string, extraCaCerts?: string): Promise<string> {
  // A clean environment: nothing inherited, so only what the test passes decides the trust.
  const env: Record<string, string> = extraCaCerts ? { NODE_EXTRA_CA_CERTS: extraCaCerts } : {};
  const { stdout } = await run(process.execPath, ['-e', CHILD_FETCH, url], { env });
  return stdout.trim();
}

describe('local certificate', () => {
  let dir: string;
  let certificate: LocalCertificate;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'microsoft-cert-'));
    certificate = await ensureLocalCertificate(dir);
    server = createServer({ key: certificate.key, cert: certificate.cert }, (_request, response) => {
      response.end('hello over tls');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://localhost:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('issues a localhost server certificate signed by a local CA', () => {
    const ca = new X509Certificate(certificate.caPem);
    const leaf = new X509Certificate(certificate.cert);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBe('::1');
  });

  it('writes PEM files, keeps the keys private, and reuses them on the next start', async () => {
    expect(certificate.caPath).toBe(join(dir, 'timeboxer-local-ca.pem'));
    expect(await readFile(certificate.caPath, 'utf8')).toBe(certificate.caPem);
    expect((await stat(join(dir, 'localhost.key'))).mode & 0o077).toBe(0);
    expect((await stat(join(dir, 'timeboxer-local-ca.key'))).mode & 0o077).toBe(0);
    const again = await ensureLocalCertificate(dir);
    expect(again).toEqual(certificate);
  });

  it('regenerates a set whose files are damaged', async () => {
    const other = await mkdtemp(join(tmpdir(), 'microsoft-cert-'));
    try {
      const first = await ensureLocalCertificate(other);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(join(other, 'localhost.pem'), 'not a certificate');
      const second = await ensureLocalCertificate(other);
      expect(second.caPem).not.toBe(first.caPem);
      expect(new X509Certificate(second.cert).checkIssued(new X509Certificate(second.caPem))).toBe(true);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('is not trusted by a process that was not told about it', async () => {
    expect(await fetchInChild(url)).toMatch(
      /^error (UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)/,
    );
  });

  it('is trusted by a process started with NODE_EXTRA_CA_CERTS', async () => {
    expect(await fetchInChild(url, certificate.caPath)).toBe('status 200 hello over tls');
  });

  it('trustCertificate makes plain fetch in this process accept it at run time', async () => {
    await expect(fetch(url)).rejects.toThrow();
    trustCertificate(certificate.caPem);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello over tls');
    const count = getCACertificates('default').length;
    trustCertificate(certificate.caPem);
    expect(getCACertificates('default')).toHaveLength(count);
  });
});
