import { describe, expect, it } from 'vitest';
import { readNoticesOffLink } from './notices-off-link.ts';

const u = '0b6a5f0e-7d3c-4c1e-9f5a-2a1b3c4d5e6f';

describe('readNoticesOffLink', () => {
  it('reads the user and the signature of a whole link', () => {
    expect(readNoticesOffLink(new URLSearchParams({ u, t: 'abc_DEF-123' }))).toEqual({ u, t: 'abc_DEF-123' });
  });

  it('reads the link version, which the signature covers, and takes a link without one (mailed before versions)', () => {
    expect(readNoticesOffLink(new URLSearchParams({ u, v: '3', t: 'sig' }))).toEqual({ u, v: '3', t: 'sig' });
    expect(readNoticesOffLink(new URLSearchParams({ u, t: 'sig' }))?.v).toBeUndefined();
    expect(readNoticesOffLink(new URLSearchParams({ u, v: 'three', t: 'sig' }))).toBeNull();
    expect(readNoticesOffLink(new URLSearchParams({ u, v: '-1', t: 'sig' }))).toBeNull();
  });

  it('ignores anything else the link carries', () => {
    expect(readNoticesOffLink(new URLSearchParams({ u, t: 'sig', utm_source: 'mail' }))).toEqual({
      u,
      t: 'sig',
    });
  });

  it('refuses a link that lost a part or was mangled', () => {
    expect(readNoticesOffLink(new URLSearchParams())).toBeNull();
    expect(readNoticesOffLink(new URLSearchParams({ u }))).toBeNull();
    expect(readNoticesOffLink(new URLSearchParams({ t: 'sig' }))).toBeNull();
    expect(readNoticesOffLink(new URLSearchParams({ u: 'not-a-uuid', t: 'sig' }))).toBeNull();
    expect(readNoticesOffLink(new URLSearchParams({ u, t: 'sig nature' }))).toBeNull();
    expect(readNoticesOffLink(new URLSearchParams({ u, t: '' }))).toBeNull();
  });
});
