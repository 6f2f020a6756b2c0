import { classifySubmitStatus } from './command-status';

describe('SMPP command_status mapping', () => {
  it.each([
    ['0x58', 'transient', 0x58, false],
    ['0x14', 'transient', 0x14, false],
    ['0x08', 'transient', 0x08, false],
    ['0x0b', 'permanent', 0x0b, true],
    ['0x0a', 'permanent', 0x0a, false],
    ['0x104', 'permanent', 0x104, false],
    ['0x1234', 'permanent', 0x1234, false],
  ])('status %s → %s', (_label, outcome, status, addressInvalid) => {
    const result = classifySubmitStatus(status);
    expect(result.outcome).toBe(outcome);
    expect(result.errorClass).toBe(`smpp-0x${status.toString(16).padStart(8, '0')}`);
    expect(result.addressInvalid === true).toBe(addressInvalid);
  });
});
