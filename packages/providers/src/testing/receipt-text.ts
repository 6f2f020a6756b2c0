/** The receipt text an SMSC writes (appendix B), as the loopback SMSC sends it in a deliver_sm. */
export function formatReceiptText(input: { id: string; stat: string; err?: string; submitDate: Date; doneDate: Date }): string {
  const d = (date: Date) =>
    [date.getUTCFullYear() % 100, date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()]
      .map((n) => String(n).padStart(2, '0'))
      .join('');
  const delivered = input.stat === 'DELIVRD' ? '001' : '000';
  return `id:${input.id} sub:001 dlvrd:${delivered} submit date:${d(input.submitDate)} done date:${d(input.doneDate)} stat:${input.stat} err:${input.err ?? '000'} text:`;
}
