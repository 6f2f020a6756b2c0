import { z } from 'zod';
import { parseProviderEventSecrets } from './routes/provider-events';

/** `512kb`, `2mb`: a body size in bytes. */
export const bodyLimit = z
  .string()
  .regex(/^\d+(b|kb|mb)$/i, 'must look like 512kb or 2mb')
  .transform((text) => {
    const [, digits, unit] = /^(\d+)(b|kb|mb)$/i.exec(text) as RegExpExecArray;
    return Number(digits) * { b: 1, kb: 1024, mb: 1024 * 1024 }[(unit as string).toLowerCase() as 'b' | 'kb' | 'mb'];
  });

/** `name:secret` pairs, each name and secret trimmed. */
export const eventSecrets = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    try {
      // Each name and secret trimmed, as the tenant keys are.
      const pairs = raw
        ?.split(',')
        .map((pair) => (pair.includes(':') ? `${pair.slice(0, pair.indexOf(':')).trim()}:${pair.slice(pair.indexOf(':') + 1).trim()}` : pair));
      return parseProviderEventSecrets(pairs?.join(','));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
