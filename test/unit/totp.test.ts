import { expect } from 'chai';
import { base32Decode, hotp, stepAt } from '../support/totp.js';
import { readCode } from '../../src/domain/users/second-factor.js';

describe('the tests’ own RFC 6238 (test/support/totp.ts)', () => {
  it('gives the SHA-1 codes of RFC 6238 Appendix B', () => {
    const key = Buffer.from('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1_111_111_109, '07081804'],
      [1_234_567_890, '89005924'],
      [20_000_000_000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(hotp(key, stepAt(seconds * 1000), 8)).to.equal(code);
  });

  it('reads base32 keys as apps do', () => {
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString()).to.equal('12345678901234567890');
  });
});

describe('readCode', () => {
  it('tells an authenticator code from a recovery code, forgiving spaces and dashes, and refuses anything else', () => {
    expect(readCode(' 123 456 ')).to.deep.equal({ kind: 'totp', code: '123456' });
    expect(readCode('ABCDE-12345')).to.deep.equal({ kind: 'recovery', code: 'abcde12345' });
    expect(readCode('12345')).to.equal(null);
    expect(readCode('abcde-1234!')).to.equal(null);
  });
});
