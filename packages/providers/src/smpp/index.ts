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
export { parseReceipt as parseSmppReceipt, type ParsedReceipt as ParsedSmppReceipt } from './receipt';
export type { SmppLogger } from './smpp-session';
