export {
  smppProviderConfigSchema,
  parseSmppUrl,
  resolveSmppEndpoint,
  type SmppProviderConfig,
  type SmppProviderConfigInput,
  type SmppEndpoint,
} from './config';
export { SmppAdapter, createSmppAdapter, SMPP_CAPABILITIES, type SmppAdapterOptions } from './smpp-adapter';
export { pendingMessageId as smppPendingMessageId, SMPP_ERROR_CLASSES } from './part-outcome';
export { classifySubmitStatus as classifySmppSubmitStatus, statusClass as smppStatusClass, SMPP_STATUS } from './command-status';
export { parseReceipt as parseSmppReceipt, type ParsedReceipt as ParsedSmppReceipt } from './receipt';
export type { SmppLogger } from './session-options';
