import { formatSms } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import type { ProviderReceipt, SendRequest, SendResult } from '../adapter';
import { LoopbackSmsc, reassemble, type ReceivedSubmit, type SubmitDecision } from '../testing';
import { smppProviderConfigSchema, type SmppProviderConfigInput } from './config';
import { SmppAdapter, createSmppAdapter } from './smpp-adapter';
import type { SmppLogger } from './session-options';

const SYSTEM_ID = 'notify';
const PASSWORD = 'Pw9$kq2Z';
const TO = '+905551112233';

/** Everything the adapter logs, to prove the password never appears in it. */
const logged: string[] = [];
const logger: SmppLogger = {
  info: (fields, message) => logged.push(JSON.stringify({ ...fields, message })),
  warn: (fields, message) => logged.push(JSON.stringify({ ...fields, message })),
};

let smsc: LoopbackSmsc;
const providers: SmppAdapter[] = [];

beforeEach(async () => {
  smsc = await LoopbackSmsc.start({ systemId: SYSTEM_ID, password: PASSWORD });
});

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  await smsc.close();
});

function provider(overrides: Partial<SmppProviderConfigInput> = {}): SmppAdapter {
  const config = smppProviderConfigSchema.parse(
    smsc.providerConfig({
      name: 'sms-a',
      rebind: { initialMs: 50, maxMs: 500 },
      ...overrides,
      timeouts: { submitMs: 5_000, unboundWaitMs: 5_000, ...overrides.timeouts },
    }),
  );
  const created = createSmppAdapter(config, { logger });
  providers.push(created);
  return created;
}

function request(text: string, notificationId = 'n-1'): SendRequest {
  return { notificationId, idempotencyKey: `${notificationId}:sms`, to: TO, message: { channel: 'sms', sms: formatSms(text, 5) }, priority: 'urgent' };
}

function answer(decide: (submit: ReceivedSubmit) => SubmitDecision): void {
  smsc.onSubmit = decide;
}

const results: SendResult[] = [];
async function send(adapter: SmppAdapter, req: SendRequest): Promise<SendResult> {
  const result = await adapter.send(req);
  results.push(result);
  return result;
}

afterAll(() => {
  // No password in anything the adapter said: results (errorClass, message) and logs.
  const said = JSON.stringify(results) + logged.join('\n');
  expect(said).not.toContain(PASSWORD);
  expect(said).not.toContain('wrong-pw');
  expect(logged.length).toBeGreaterThan(0);
});

describe('SMPP adapter against a loopback SMSC', () => {
  it('reports a refused bind (wrong password) as a configuration error, nothing sent', async () => {
    const adapter = provider({ password: 'wrong-pw' });
    const result = await send(adapter, request('Hello'));
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'config-bind-refused', sent: false });
    expect(result.message).toContain('ESME_RINVPASWD');
    expect(smsc.refusedBinds).toBeGreaterThanOrEqual(1);
    expect(smsc.submits).toHaveLength(0);
  });

  it('delivers a GSM-7 single part with data_coding 0, TON/NPI and a receipt request', async () => {
    const adapter = provider();
    const text = 'Your code is 482913 [valid 5 min] €1 {ok}';
    const result = await send(adapter, request(text));
    expect(result).toMatchObject({ outcome: 'delivered', sent: true });
    expect(smsc.submits).toHaveLength(1);
    const [submit] = smsc.submits;
    expect(result.providerMessageId).toBe(submit?.messageId);
    expect(submit).toMatchObject({
      text,
      dataCoding: 0,
      esmClass: 0,
      registeredDelivery: 1,
      destinationAddr: '905551112233',
      destTon: 1,
      destNpi: 1,
      sourceAddr: 'Notify',
      sourceTon: 5,
      sourceNpi: 0,
    });
    expect(adapter.capabilities).toEqual({ idempotencyKey: false, lookup: false, receipts: true });
  });

  it('sends a Turkish multi-part text as UCS-2 parts with a concatenation UDH the SMSC reassembles', async () => {
    const adapter = provider();
    const text =
      'Sayın müşterimiz, ödemeniz başarıyla alınmıştır. Siparişiniz İstanbul deposundan çıkış yaptı; ' +
      'kargo takip numaranız 7781-ĞÜŞİÖÇ-ığüşöç. Teslimat sırasında kimliğinizi göstermeniz gerekmektedir. İyi günler dileriz!';
    const sms = formatSms(text, 5);
    expect(sms).toMatchObject({ encoding: 'UCS-2', truncated: false });
    expect(sms.segments).toBeGreaterThan(2);
    const result = await send(adapter, request(text));
    expect(result).toMatchObject({ outcome: 'delivered', sent: true });
    expect(smsc.submits).toHaveLength(sms.segments);
    expect(result.providerMessageId).toBe(smsc.submits[0]?.messageId);
    const references = new Set(smsc.submits.map((s) => s.concat?.reference));
    expect(references.size).toBe(1);
    smsc.submits.forEach((submit, index) => {
      expect(submit).toMatchObject({ dataCoding: 8, esmClass: 0x40, registeredDelivery: 1, concat: { total: sms.segments, sequence: index + 1 } });
      expect(submit.text.length).toBeLessThanOrEqual(67);
    });
    expect(reassemble(smsc.submits)).toEqual([text]);
  });

  it('maps ESME_RTHROTTLED to transient, ESME_RINVDSTADR to permanent + addressInvalid, an unknown status to permanent with its hex code', async () => {
    const adapter = provider();
    answer(() => ({ answer: 'now', status: 0x58 }));
    expect(await send(adapter, request('a'))).toMatchObject({ outcome: 'transient', errorClass: 'smpp-0x00000058', sent: true });
    answer(() => ({ answer: 'now', status: 0x0b }));
    const invalid = await send(adapter, request('b'));
    expect(invalid).toMatchObject({ outcome: 'permanent', errorClass: 'smpp-0x0000000b', addressInvalid: true, sent: true });
    answer(() => ({ answer: 'now', status: 0x0456 }));
    const odd = await send(adapter, request('c'));
    expect(odd).toMatchObject({ outcome: 'permanent', errorClass: 'smpp-0x00000456', sent: true });
    expect(odd.addressInvalid).toBeUndefined();
  });

  it('answers unknown (sent) when the submit_sm_resp never comes within the timeout', async () => {
    const adapter = provider({ timeouts: { submitMs: 300 } });
    answer(() => ({ answer: 'never' }));
    const result = await send(adapter, request('stalled'));
    expect(result).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
    expect(smsc.submits).toHaveLength(1);
  });

  it('settles an unknown outcome by a late submit_sm_resp and the receipt that follows (or by a late refusal)', async () => {
    const adapter = provider({ timeouts: { submitMs: 300 } });
    const receipts: ProviderReceipt[] = [];
    adapter.onReceipt((receipt) => receipts.push(receipt));
    answer(() => ({ answer: 'hold' }));
    const late = await send(adapter, request('answered late', 'n-late'));
    expect(late).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true, providerMessageId: 'pending:n-late' });
    smsc.releaseHeld();
    const messageId = smsc.submits[0]?.messageId ?? '';
    expect(await smsc.sendReceipt({ messageId, stat: 'DELIVRD' })).toBe(0);
    await waitFor('the receipt of the late message', () => receipts.length === 1);
    expect(receipts[0]).toMatchObject({ provider: 'sms-a', providerMessageId: 'pending:n-late', state: 'delivered' });

    answer(() => ({ answer: 'hold', status: 0x58 }));
    const refused = await send(adapter, request('refused late', 'n-refused'));
    expect(refused).toMatchObject({ outcome: 'unknown', providerMessageId: 'pending:n-refused' });
    smsc.releaseHeld();
    await waitFor('the late refusal', () => receipts.length === 2);
    expect(receipts[1]).toMatchObject({ providerMessageId: 'pending:n-refused', state: 'undeliverable', detail: 'late submit_sm_resp ESME_RTHROTTLED' });
  });

  it('re-binds after the SMSC drops the connection; the next send waits for the bind and is delivered', async () => {
    const adapter = provider();
    expect(await send(adapter, request('before'))).toMatchObject({ outcome: 'delivered' });
    smsc.dropConnections();
    await waitFor('the adapter to see the lost session', () => !adapter.bound);
    const result = await send(adapter, request('after'));
    expect(result).toMatchObject({ outcome: 'delivered', sent: true });
    expect(smsc.binds).toBe(2);
    expect(smsc.submits.map((s) => s.text)).toEqual(['before', 'after']);
  });

  it('keeps the session alive with enquire_link and re-binds when the SMSC stops answering it', async () => {
    const adapter = provider({ enquireLinkMs: 100, timeouts: { enquireLinkMs: 200 } });
    await waitFor('two answered enquire_links', () => adapter.bound && smsc.enquireLinks >= 2);
    expect(smsc.binds).toBe(1);
    smsc.answerEnquireLinks = false;
    await waitFor('a re-bind after an unanswered enquire_link', () => smsc.binds >= 2);
    smsc.answerEnquireLinks = true;
    await waitFor('bound again', () => adapter.bound);
    expect(await send(adapter, request('still here'))).toMatchObject({ outcome: 'delivered' });
  });

  it('fails transient and not sent when no session can be bound within the wait', async () => {
    const adapter = provider({ timeouts: { unboundWaitMs: 200 } });
    await waitFor('bound', () => adapter.bound);
    await smsc.close();
    await waitFor('the adapter to see the lost session', () => !adapter.bound);
    const result = await send(adapter, request('nobody there'));
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'smpp-unbound', sent: false });
    smsc = await LoopbackSmsc.start({ systemId: SYSTEM_ID, password: PASSWORD }); // for afterEach
  });

  it('keeps a window of N submit_sm outstanding: the SMSC sees N before answering any, the next waits its turn', async () => {
    const window = 4;
    const adapter = provider({ window });
    await waitFor('bound', () => adapter.bound);
    let maxOutstanding = 0;
    let outstanding = 0;
    answer(() => {
      outstanding++;
      maxOutstanding = Math.max(maxOutstanding, outstanding);
      return { answer: 'hold' };
    });
    const sends = Array.from({ length: window + 1 }, (_, i) => send(adapter, request(`message ${i}`, `n-${i}`)));
    await waitFor(`${window} submit_sm at the SMSC`, () => smsc.submits.length >= window);
    expect(smsc.submits).toHaveLength(window);
    outstanding = 0;
    smsc.releaseHeld();
    await waitFor('the send beyond the window', () => smsc.submits.length === window + 1);
    smsc.releaseHeld();
    const all = await Promise.all(sends);
    expect(all.map((r) => r.outcome)).toEqual(Array<string>(window + 1).fill('delivered'));
    expect(maxOutstanding).toBe(window);
  });

  it('hands a delivery receipt (text or TLVs) to onReceipt listeners with the message id and state', async () => {
    const adapter = provider();
    const receipts: ProviderReceipt[] = [];
    adapter.onReceipt((receipt) => receipts.push(receipt));
    const first = await send(adapter, request('receipt please', 'n-r1'));
    const second = await send(adapter, request('another', 'n-r2'));
    const doneDate = new Date(Date.UTC(2026, 10, 30, 12, 34));
    expect(await smsc.sendReceipt({ messageId: first.providerMessageId ?? '', stat: 'DELIVRD', doneDate })).toBe(0);
    expect(await smsc.sendReceipt({ messageId: second.providerMessageId ?? '', stat: 'UNDELIV', err: '001', tlv: true })).toBe(0);
    expect(await smsc.sendReceipt({ messageId: second.providerMessageId ?? '', stat: 'ENROUTE' })).toBe(0);
    await waitFor('two receipts', () => receipts.length >= 2);
    expect(receipts).toEqual([
      { provider: 'sms-a', providerMessageId: first.providerMessageId, state: 'delivered', at: doneDate.getTime(), detail: 'stat:DELIVRD err:000' },
      expect.objectContaining({ provider: 'sms-a', providerMessageId: second.providerMessageId, state: 'undeliverable', detail: 'stat:UNDELIV err:001' }),
    ]);
  });

  it('settles a multi-part message on its parts’ receipts under the first part’s id', async () => {
    const adapter = provider();
    const receipts: ProviderReceipt[] = [];
    adapter.onReceipt((receipt) => receipts.push(receipt));
    const result = await send(adapter, request('x'.repeat(200), 'n-multi'));
    expect(smsc.submits).toHaveLength(2);
    const [one, two] = smsc.submits;
    await smsc.sendReceipt({ messageId: two?.messageId ?? '', stat: 'DELIVRD' });
    expect(receipts).toHaveLength(0);
    await smsc.sendReceipt({ messageId: one?.messageId ?? '', stat: 'DELIVRD' });
    await waitFor('the message receipt', () => receipts.length === 1);
    expect(receipts[0]).toMatchObject({ providerMessageId: result.providerMessageId, state: 'delivered' });
  });
});
