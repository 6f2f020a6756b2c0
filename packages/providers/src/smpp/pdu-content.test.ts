import { formatSms } from '@notify/core';
import { encodings } from 'smpp';
import { ESM_CLASS_UDHI, buildSegments, concatReference, encodeUcs2, smppAddress } from './pdu-content';

describe('SMPP segments', () => {
  it('sends up to 160 GSM-7 septets as one part, unpacked, extension characters escaped', () => {
    const text = `${'a'.repeat(158)}€`;
    const [part, ...rest] = buildSegments(formatSms(text, 3), 7);
    expect(rest).toHaveLength(0);
    expect(part).toMatchObject({ dataCoding: 0, esmClass: 0 });
    expect(part?.shortMessage).toHaveLength(160);
    expect(part?.shortMessage.subarray(158)).toEqual(Buffer.from([0x1b, 0x65]));
  });

  it('cuts GSM-7 into 153-septet parts with a concatenation UDH, never between an escape and its character', () => {
    const text = `${'a'.repeat(152)}€${'b'.repeat(10)}`;
    const parts = buildSegments(formatSms(text, 3), 0x1ab);
    expect(parts).toHaveLength(2);
    expect(parts.map((p) => p.esmClass)).toEqual([ESM_CLASS_UDHI, ESM_CLASS_UDHI]);
    expect(parts[0]?.shortMessage.subarray(0, 6)).toEqual(Buffer.from([0x05, 0x00, 0x03, 0xab, 2, 1]));
    expect(parts[1]?.shortMessage.subarray(0, 6)).toEqual(Buffer.from([0x05, 0x00, 0x03, 0xab, 2, 2]));
    expect(parts[0]?.shortMessage).toHaveLength(6 + 152);
    const decoded = parts.map((p) => encodings.ASCII.decode(p.shortMessage.subarray(6))).join('');
    expect(decoded).toBe(text);
  });

  it('cuts UCS-2 into 67-unit parts, never inside a surrogate pair', () => {
    const text = `${'ş'.repeat(66)}😀${'ğ'.repeat(10)}`;
    const parts = buildSegments(formatSms(text, 3), 1);
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.dataCoding === 8)).toBe(true);
    expect(parts[0]?.shortMessage.subarray(6)).toEqual(encodeUcs2('ş'.repeat(66)));
    expect(parts[1]?.shortMessage.subarray(6)).toEqual(encodeUcs2(`😀${'ğ'.repeat(10)}`));
    expect(encodeUcs2('İ')).toEqual(Buffer.from([0x01, 0x30]));
  });

  it('derives the same concatenation reference from the same notification id', () => {
    expect(concatReference('n-42')).toBe(concatReference('n-42'));
    const references = new Set(Array.from({ length: 64 }, (_, i) => concatReference(`n-${i}`)));
    expect(references.size).toBeGreaterThan(32);
  });

  it('gives E.164 numbers TON 1 / NPI 1 without the +, alphanumeric senders TON 5 / NPI 0, short codes TON 0 / NPI 1', () => {
    expect(smppAddress('+905551112233')).toEqual({ addr: '905551112233', ton: 1, npi: 1 });
    expect(smppAddress('Notify')).toEqual({ addr: 'Notify', ton: 5, npi: 0 });
    expect(smppAddress('4455')).toEqual({ addr: '4455', ton: 0, npi: 1 });
  });
});
