import { classifySubmitStatus } from './command-status';

describe('SMPP command_status mapping', () => {
  it.each([
    [0x58, 'transient', false],
    [0x14, 'transient', false],
    [0x08, 'transient', false],
    [0x0b, 'permanent', true],
    [0x0a, 'permanent', false],
    [0x104, 'permanent', false],
    [0x1234, 'permanent', false],
  ])('status 0x%s → %s', (status, outcome, addressInvalid) => {
    const result = classifySubmitStatus(status);
    expect(result.outcome).toBe(outcome);
    expect(result.errorClass).toBe(`smpp-0x${status.toString(16).padStart(8, '0')}`);
    expect(result.addressInvalid === true).toBe(addressInvalid);
  });
});
