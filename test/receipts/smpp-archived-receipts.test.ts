import { setTimeout as delay } from 'node:timers/promises';
import { waitFor } from '@notify/platform-kit';
import { LoopbackSmsc } from '@notify/providers/testing';
import { waitAllArchived } from '../history/archiver-fixture';
import { startHistoryPlatform, type HistoryPlatform } from '../history/history-platform';
import { TEST_TIME_SCALE } from '../harness/platform';
import { oneChannel, postNotification, writeProvidersFile } from '../providers/real-provider-harness';

/**
 * An SMPP delivery receipt (applied by the worker, docs/provider-events.md) that arrives after
 * the archiver moved the notification to PostgreSQL is recorded on the history row.
 */
const SMPP_PASSWORD = 'ArchPw01';
const TENANT = 'tenant-a';

let smsc: LoopbackSmsc;
let running: HistoryPlatform;

beforeAll(async () => {
  smsc = await LoopbackSmsc.start({ systemId: 'notify', password: SMPP_PASSWORD, onSubmit: () => ({ answer: 'now' }) });
  const file = writeProvidersFile([
    '  - kind: smpp',
    '    name: sms-smpp',
    '    url: "smpp://notify:${SMPP_PASSWORD}@127.0.0.1:${SMPP_PORT}"',
    '    sourceAddr: Notify',
  ]);
  running = await startHistoryPlatform('smpp_late_receipts', { workerCount: 1, env: { PROVIDERS_FILE: file, SMPP_PASSWORD, SMPP_PORT: String(smsc.port) } });
}, 120_000);

afterAll(async () => {
  await running?.stop();
  await smsc?.close();
});

it('a deliver_sm receipt 10 minutes (scaled) after archival is recorded on the history row', async () => {
  const id = await postNotification(
    running.platform.api.url,
    oneChannel('sms', 'smpp-late-1', 'smpp-late-1', '+905554440011', { title: 'Kod', body: 'Kodunuz 4821' }),
  );
  // Waited for in the history: on a busy machine the archiver can move the record out of Redis
  // before a poll of Redis has seen it terminal.
  const o = { redisUrl: running.platform.redis.url, historyUrl: running.historyUrl, store: running.store, tenant: TENANT };
  await waitAllArchived(o, [id], 60_000);
  expect((await running.store.get(TENANT, id))?.status).toBe('delivered');
  // The scenario is the delay itself: the receipt comes well after the record left Redis.
  await delay(10 * 60_000 * TEST_TIME_SCALE);
  const submit = smsc.submits.find((s) => s.destinationAddr === '905554440011')!;
  await smsc.sendReceipt({ messageId: submit.messageId, stat: 'DELIVRD' });
  const row = await waitFor(
    'the receipt on the history row',
    async () => {
      const v = await running.store.get(TENANT, id);
      return v?.attempts[0]?.receipt ? v : undefined;
    },
    20_000,
    100,
  );
  expect(row).toMatchObject({ status: 'delivered' });
  expect(row.attempts[0]).toMatchObject({
    provider: 'sms-smpp',
    providerMessageId: submit.messageId,
    receipt: 'delivered',
    receiptDetail: expect.stringContaining('stat:DELIVRD'),
  });
}, 120_000);
