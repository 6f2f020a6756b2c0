import { createServer, request as httpRequest, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { type RequestHandler } from 'express';
import pino from 'pino';
import { errorMiddleware } from './error-middleware';
import { jsonBody } from './json-body';

const LIMIT = 1024;

/** An app that answers what the body reader left in `req.body`, its errors through the api's error middleware. */
function appWith(reader: RequestHandler) {
  const app = express();
  app.post('/', reader, (req, res) => {
    res.json({ has: 'body' in req, body: (req.body as unknown) ?? null });
  });
  app.use(errorMiddleware(pino({ level: 'silent' })));
  return app;
}

let lean: Server;
let reference: Server;
const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
beforeAll(async () => {
  lean = createServer(appWith(jsonBody({ limit: LIMIT })));
  reference = createServer(appWith(express.json({ limit: LIMIT, type: ['application/json', 'application/*+json'] })));
  await Promise.all([listen(lean), listen(reference)]);
});
afterAll(async () => {
  await Promise.all([lean, reference].map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Sends the chunks as they are (no Content-Length given: chunked), answers status and parsed body. */
function send(server: Server, headers: OutgoingHttpHeaders, chunks: (string | Buffer)[]): Promise<{ status: number; body: unknown }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const json = { 'content-type': 'application/json' };
const sized = (text: string | Buffer, headers: OutgoingHttpHeaders = json) => ({
  headers: { ...headers, 'content-length': Buffer.byteLength(text) },
  chunks: [text],
});
const CASES: Record<string, { headers: OutgoingHttpHeaders; chunks: (string | Buffer)[] }> = {
  'an object': sized('{"eventId":"e1","recipient":{"id":"r1"}}'),
  'an array': sized(' [1,2]'),
  'an empty body': sized(''),
  'whitespace only': sized('  \n'),
  'malformed JSON': sized('{"eventId":'),
  'a string (strict)': sized('"text"'),
  'a number after spaces (strict)': sized('   42'),
  'true (strict)': sized('true'),
  'a UTF-8 BOM': sized(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')])),
  'charset=utf-8': sized('{"a":1}', { 'content-type': 'application/json; charset=utf-8' }),
  'charset="UTF-8"': sized('{"a":1}', { 'content-type': 'application/json; charset="UTF-8"' }),
  'charset=utf-16': sized('{"a":1}', { 'content-type': 'application/json; charset=utf-16' }),
  'charset=latin1': sized('{"a":1}', { 'content-type': 'application/json; charset=latin1' }),
  'a +json type': sized('{"a":1}', { 'content-type': 'application/merge-patch+json' }),
  'text/plain': sized('hello', { 'content-type': 'text/plain' }),
  'no content type': sized('{"a":1}', {}),
  'a malformed content type': sized('{"a":1}', { 'content-type': 'application/json; charset' }),
  'no body at all': { headers: json, chunks: [] },
  'chunked, in pieces': { headers: json, chunks: ['{"a":', '[1,2,', '3]}'] },
  'chunked, over the limit': { headers: json, chunks: ['{"a":"', 'x'.repeat(LIMIT), '"}'] },
  'declared over the limit': sized(`{"a":"${'x'.repeat(LIMIT)}"}`),
  'exactly the limit': sized(`{"a":"${'x'.repeat(LIMIT - 8)}"}`),
  gzip: sized(gzipSync('{"a":1}'), { ...json, 'content-encoding': 'gzip' }),
  'an unknown content encoding': sized('{"a":1}', { ...json, 'content-encoding': 'snappy' }),
  'content-encoding identity': sized('{"a":1}', { ...json, 'content-encoding': 'identity' }),
};

describe('jsonBody answers every body as express.json does', () => {
  it.each(Object.keys(CASES))('%s', async (name) => {
    const { headers, chunks } = CASES[name]!;
    const [ours, theirs] = await Promise.all([send(lean, headers, chunks), send(reference, headers, chunks)]);
    expect(ours).toEqual(theirs);
  });

  it('names the problem: bad JSON, a body too large', async () => {
    const malformed = sized('{"eventId":');
    const bad = await send(lean, malformed.headers, malformed.chunks);
    expect(bad).toEqual({ status: 400, body: { error: { code: 'MALFORMED_JSON', message: expect.stringMatching(/^the body is not valid JSON: .+/) } } });
    const { headers, chunks } = CASES['chunked, over the limit']!;
    expect(await send(lean, headers, chunks)).toEqual({
      status: 413,
      body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'the body exceeds the size limit' } },
    });
  });

  it('a client gone mid-body: the route never runs, the server goes on', async () => {
    const { port } = lean.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: json });
      req.on('error', () => resolve());
      req.write('{"eventId":"e');
      setTimeout(() => req.destroy(), 50);
    });
    const { headers, chunks } = CASES['an object']!;
    expect(await send(lean, headers, chunks)).toEqual({ status: 200, body: { has: true, body: { eventId: 'e1', recipient: { id: 'r1' } } } });
  });
});
