export {
  smppProviderConfigSchema,
  parseSmppUrl,
  resolveSmppEndpoint,
  type SmppProviderConfig,
  type SmppProviderConfigInput,
  type SmppEndpoint,
} from './config';
export {
  SmppAdapter,
  createSmppAdapter,
  pendingMessageId as smppPendingMessageId,
  SMPP_CAPABILITIES,
  SMPP_ERROR_CLASSES,
  type SmppAdapterOptions,
} from './smpp-adapter';
export { classifySubmitStatus as classifySmppSubmitStatus, statusClass as smppStatusClass, SMPP_STATUS } from './command-status';
export { parseReceipt as parseSmppReceipt, formatReceiptText as formatSmppReceiptText, type ParsedReceipt as ParsedSmppReceipt } from './receipt';
export type { SmppLogger } from './smpp-session';
/** Test support: an SMSC on loopback (the `smpp` package's server side) for adapter and worker integration tests. */
export {
  LoopbackSmsc,
  reassemble as reassembleSmppParts,
  type ReceivedSubmit as ReceivedSmppSubmit,
  type SubmitDecision as SmppSubmitDecision,
  type LoopbackSmscOptions,
} from './loopback-smsc';
