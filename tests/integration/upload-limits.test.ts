import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { UploadAdmission } from '../../services/gateway/src/upload/upload-admission.js';
import { startGateway, type Gateway } from '../../services/gateway/test/support/gateway-harness.js';

/**
 * An upload whose headers are sent and whose body is not (or only partly): it holds whatever the
 * gateway gives it until the test ends it.
 */
interface OpenUpload {
  request: ClientRequest;
  /** The answer, or undefined when the connection ended without one. */
  response: Promise<IncomingMessage | undefined>;
}

function openUpload(
  base: string,
  key: string,
  headers: Record<string, string | number> = { 'content-length': 100_000 },
): OpenUpload {
  const req = request(`${base}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
  });
  const response = new Promise<IncomingMessage | undefined>((resolve) => {
    req.once('response', resolve);
    req.once('error', () => resolve(undefined));
  });
  req.flushHeaders();
  return { request: req, response };
}

async function bodyOf(response?: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of response!) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
}

/** A complete small upload (an invalid report: admitted ones answer 400). */
async function smallUpload(base: string, key: string) {
  const response = await fetch(`${base}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** Everything the server says on a raw connection until it closes it. */
function answerOf(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

describe('upload memory bounds', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  /** The same stores with short request time-outs. */
  let impatient: Gateway;
  const keys: string[] = [];
  const open: OpenUpload[] = [];

  beforeAll(async () => {
    stores = await createIsolatedStores();
    const limits = {
      UPLOAD_MAX_BYTES: String(1024 * 1024),
      UPLOAD_INFLIGHT_MAX: '4',
      UPLOAD_INFLIGHT_MAX_BYTES: String(2 * 1024 * 1024),
      UPLOAD_RATE_LIMIT_PER_MINUTE: '0',
    };
    gw = await startGateway(stores, limits);
    impatient = await startGateway(stores, {
      ...limits,
      HTTP_HEADERS_TIMEOUT_S: '1',
      HTTP_REQUEST_TIMEOUT_S: '2',
    });
    const owner = await gw.prisma.user.create({ data: { email: 'ci@example.com' } });
    for (const name of ['A', 'B', 'C']) {
      keys.push((await createProjectWithKey(gw.prisma, owner.id, `Board ${name}`)).apiKey);
    }
  });

  afterAll(async () => {
    for (const upload of open) upload.request.destroy();
    await gw?.close();
    await impatient?.close();
    await stores?.cleanup();
  });

  it('answers a bad key from the headers, without waiting for the body', async () => {
    // 60 MB announced, not a byte sent: the answer can only come from the headers.
    const upload = openUpload(gw.url, 'mt_0123456789abcdef_wrong', {
      'content-length': 60_000_000,
    });
    open.push(upload);
    const response = await upload.response;
    expect(response?.statusCode).toBe(401);
    expect(await bodyOf(response)).toMatchObject({ success: false, error: 'Invalid API key' });
    upload.request.destroy();
  });

  it('tells a client that asks first (Expect: 100-continue) to send its body only once admitted', async () => {
    /** The first line the server sends, and everything up to its final answer. */
    const ask = (key: string) =>
      new Promise<{ first: string; all: string }>((resolve) => {
        const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
        let all = '';
        socket.on('data', (chunk) => {
          if (!all) socket.write('{}'); // told to go on or not, a client sends its body
          all += chunk.toString();
          if (/HTTP\/1\.1 [2-5]\d\d [^\r]*\r\n[^]*\r\n\r\n/.test(all)) {
            socket.destroy();
            resolve({ first: all.split('\r\n')[0]!, all });
          }
        });
        socket.write(
          `POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n',
        );
      });
    const refused = await ask('mt_0123456789abcdef_wrong');
    expect(refused.first).toBe('HTTP/1.1 401 Unauthorized');
    expect(refused.all).not.toContain('100 Continue');
    const admitted = await ask(keys[1]!);
    expect(admitted.first).toBe('HTTP/1.1 100 Continue');
    expect(admitted.all).toContain('HTTP/1.1 400 Bad Request');
  });

  it('refuses uploads over the size limit from their Content-Length alone', async () => {
    const upload = openUpload(gw.url, keys[0]!, { 'content-length': 2 * 1024 * 1024 });
    open.push(upload);
    const response = await upload.response;
    expect(response?.statusCode).toBe(413);
    upload.request.destroy();
  });

  it('gives one key half the uploads in flight (429), the process all of them (503)', async () => {
    const [a, b, c] = keys as [string, string, string];
    const holding = [a, a, b, b].map((key) => openUpload(gw.url, key));
    open.push(...holding);

    // Once A's two uploads are admitted, A's share is taken; until then probes are admitted.
    const refused = await eventually(
      () => smallUpload(gw.url, a),
      (answer) => answer.status === 429,
      { timeoutMs: 30_000 },
    );
    expect(refused.retryAfter).toBe('5');
    expect(refused.body).toMatchObject({ success: false, type: 'TooManyRequestsError' });
    expect(String(refused.body.error)).toContain('uploads in flight');

    const busy = await eventually(
      () => smallUpload(gw.url, c),
      (answer) => answer.status === 503,
      { timeoutMs: 30_000 },
    );
    expect(busy.retryAfter).toBe('5');
    expect(busy.body).toMatchObject({ success: false, type: 'ServiceUnavailableError' });

    // An upload that ends gives its place back.
    for (const upload of holding) upload.request.destroy();
    const admitted = await eventually(
      () => smallUpload(gw.url, c),
      (answer) => answer.status === 400,
      { timeoutMs: 30_000 },
    );
    expect(String(admitted.body.error)).toContain('metadata is required');
  });

  it('counts the bytes of a body without Content-Length as they arrive', async () => {
    // Chunked: nothing is reserved up front. A key's share is 1 MiB; a second body crosses it
    // while being read.
    const first = openUpload(gw.url, keys[0]!, { 'transfer-encoding': 'chunked' });
    const second = openUpload(gw.url, keys[0]!, { 'transfer-encoding': 'chunked' });
    open.push(first, second);
    const almostAll = Buffer.alloc(1024 * 1024 - 1024, 32);
    first.request.write(almostAll);
    await eventually(
      async () => gw.app.get(UploadAdmission).usage.bytes,
      (bytes) => bytes >= almostAll.length,
    );
    second.request.write(Buffer.alloc(4096, 32));
    const response = await second.response;
    expect(response?.statusCode).toBe(429);
    first.request.destroy();
    second.request.destroy();
  });

  it('closes a connection that trickles its body, long before the body could arrive', async () => {
    const socket = connect(Number(new URL(impatient.url).port), '127.0.0.1');
    const answer = answerOf(socket);
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys[2]}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    let sent = 0;
    // One byte every 200 ms: the whole body would take 200 s.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('{', () => sent++);
    }, 200);
    const text = await answer;
    clearInterval(trickle);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(1000);
  });

  it('closes a connection that trickles its headers', async () => {
    const socket = connect(Number(new URL(impatient.url).port), '127.0.0.1');
    const answer = answerOf(socket);
    const headers = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(1000)}\r\n\r\n`;
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && sent < headers.length) socket.write(headers[sent++]!);
    }, 200);
    const text = await answer;
    clearInterval(trickle);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(headers.length);
  });
});
