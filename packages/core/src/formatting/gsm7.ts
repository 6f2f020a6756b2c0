/**
 * The GSM 03.38 default alphabet and its extension table. A message made only of these
 * characters is sent as GSM-7 (160 characters, 153 per part when concatenated); anything else
 * (Turkish ğ, ı, ş, İ, emoji...) forces UCS-2 (70, 67 per part). Extension characters take two
 * septets.
 */
const BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENSION = '^{}\\[~]|€\f';

// (0x1B, the escape to the extension table, is not a character of its own.)
const BASIC_SET = new Set(BASIC);
const EXTENSION_SET = new Set(EXTENSION);

/** Septets a character takes in GSM-7, or undefined when it is not representable. */
export function gsm7Septets(char: string): number | undefined {
  if (BASIC_SET.has(char)) return 1;
  if (EXTENSION_SET.has(char)) return 2;
  return undefined;
}

export function isGsm7(text: string): boolean {
  for (const char of text) if (gsm7Septets(char) === undefined) return false;
  return true;
}
