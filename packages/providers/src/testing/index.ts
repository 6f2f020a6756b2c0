/**
 * Test peers of the provider adapters, on loopback: an SMSC, an SMTP server, an HTTP SMS
 * provider, a Web Push service and FCM. Tests, simulators and tools import them from
 * `@notify/providers/testing`; production code never does (test/ops/layering.test.ts), so the
 * package's index, which the api and the worker load, carries none of them.
 * Each peer gives the provider entry that points an adapter at it (`providerConfig`).
 */
export { LoopbackSmsc, reassemble, type ReceivedSubmit, type SubmitDecision, type LoopbackSmscOptions } from './loopback-smsc';
export { LoopbackSmtp, smtpError, type LoopbackSmtpOptions, type ReceivedMail, type SmtpAnswer } from './loopback-smtp';
export { LoopbackHttpSms, HTTP_SMS_NUMBER_ANSWERS, type ReceivedSmsCall } from './loopback-http-sms';
export { LoopbackPushService, type PushServiceBehaviour, type ReceivedPush, type VapidKeys } from './loopback-push-service';
export { LoopbackFcm, FCM_TOKEN_BEHAVIOURS, type FcmAccount, type ReceivedFcmMessage } from './loopback-fcm';
export { formatReceiptText as formatSmppReceiptText } from './receipt-text';
