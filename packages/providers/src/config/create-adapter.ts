import type { ProviderAdapter } from '../adapter';
import { FcmAdapter } from '../fcm/fcm-adapter';
import { HttpSmsAdapter } from '../http-sms/http-sms-adapter';
import { SimulatorAdapter } from '../simulator/simulator-adapter';
import { SmppAdapter } from '../smpp/smpp-adapter';
import { SmtpAdapter } from '../smtp/smtp-adapter';
import { WebPushAdapter } from '../web-push/web-push-adapter';
import type { ProviderConfig } from './providers-file';

/** The adapter of one configured provider. */
export function createProviderAdapter(config: ProviderConfig): ProviderAdapter {
  switch (config.kind) {
    case 'simulator':
      return new SimulatorAdapter(config);
    case 'smtp':
      return new SmtpAdapter(config);
    case 'web-push':
      return new WebPushAdapter(config);
    case 'fcm':
      return new FcmAdapter(config);
    case 'smpp':
      return new SmppAdapter(config);
    case 'http-sms':
      return new HttpSmsAdapter(config);
  }
}
