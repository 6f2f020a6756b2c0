import { request } from 'undici';

/** What the stores report after a control call. */
export interface TariffState {
  tariffMode: string;
}

const CONTROL_TIMEOUT_MS = 5000;

async function setTariffMode(storesBaseUrl: string, mode: 'slow' | 'healthy'): Promise<TariffState> {
  let url: URL;
  try {
    url = new URL('/control/tariff', storesBaseUrl);
  } catch {
    throw new Error(`tracking stores base URL is not a URL: ${JSON.stringify(storesBaseUrl)}`);
  }
  let response;
  try {
    response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode }),
      headersTimeout: CONTROL_TIMEOUT_MS,
      bodyTimeout: CONTROL_TIMEOUT_MS,
    });
  } catch (error: unknown) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`tracking stores unreachable at ${url.origin} (POST /control/tariff): ${detail}`, { cause: error });
  }
  const text = await response.body.text();
  if (response.statusCode !== 200) {
    throw new Error(`tracking stores at ${url.origin} refused tariff mode "${mode}": ${response.statusCode} ${text}`);
  }
  return JSON.parse(text) as TariffState;
}

/** AY10: slow the tariff store down (tens of times its 6 ms median) until restored. */
export async function slowTariff(storesBaseUrl: string): Promise<TariffState> {
  return setTariffMode(storesBaseUrl, 'slow');
}

/** Ends AY10: the tariff store plays its healthy latency cycle again. */
export async function restoreTariff(storesBaseUrl: string): Promise<TariffState> {
  return setTariffMode(storesBaseUrl, 'healthy');
}
