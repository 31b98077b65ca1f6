/**
 * The stdio framing guard (server/src/stdioFraming.ts): well-formed frames pass unchanged whatever the
 * chunking; what is not a frame is skipped up to the next `Content-Length:`; a message above the cap is read
 * past. The output is read back by the protocol library's own reader.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-languageserver-protocol/node';
import { FramingGuard } from '../../../server/src/stdioFraming';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
const msg = (n: number, text = 'x') => JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { n, text } });

/** What the guard passes on for `chunks`, as bytes, and what it said. */
async function through(chunks: Buffer[], opts: { maxMessageBytes?: number } = {}) {
  const notices: string[] = [];
  const guard = new FramingGuard((l) => notices.push(l), opts);
  const out: Buffer[] = [];
  guard.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise((r) => guard.on('end', r));
  for (const c of chunks) guard.write(c);
  guard.end();
  await ended;
  return { bytes: Buffer.concat(out), notices };
}

/** The messages the protocol library reads from `bytes`. */
async function messages(bytes: Buffer, count: number): Promise<Message[]> {
  const reader = new StreamMessageReader(PassThrough.from([bytes]));
  const got: Message[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`read ${got.length} of ${count} messages`)), 2000);
    reader.listen((m) => {
      got.push(m);
      if (got.length < count) return;
      clearTimeout(timer);
      resolve();
    });
  });
  reader.dispose();
  return got;
}

describe('FramingGuard', () => {
  it('passes well-formed frames unchanged, split at every byte', async () => {
    const stream = Buffer.from(frame(msg(1, 'é€𝄞')) + frame(msg(2)), 'utf8');
    for (let cut = 0; cut <= stream.length; cut++) {
      const { bytes, notices } = await through([stream.subarray(0, cut), stream.subarray(cut)]);
      assert.ok(bytes.equals(stream), `cut at ${cut}`);
      assert.deepEqual(notices, []);
    }
  });

  it('drops Content-Type and other headers (the body is UTF-8 JSON), and reads the length in any case', async () => {
    const body = msg(3);
    const input = `content-length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=latin1\r\n\r\n${body}`;
    const { bytes } = await through([Buffer.from(input)]);
    assert.equal(bytes.toString(), frame(body));
  });

  it('skips what is not a frame up to the next Content-Length, byte by byte too, and says so', async () => {
    const garbage = [
      'X-Nothing: 1\r\n\r\n{"a":1}',
      'Content-Length: twelve\r\n\r\n{"b":2}',
      'stray bytes ',
      'Content-Length: 99999999999999999999\r\n\r\n',
      'Content-Length: -4\r\n\r\n',
      '\r\n\r\n\r\n',
    ];
    const input = Buffer.from(garbage.join('') + frame(msg(1)) + garbage.join('') + frame(msg(2)), 'utf8');
    for (const chunks of [[input], [...input].map((b) => Buffer.from([b]))]) {
      const { bytes, notices } = await through(chunks);
      assert.deepEqual(await messages(bytes, 2), [JSON.parse(msg(1)), JSON.parse(msg(2))]);
      assert.equal(bytes.toString(), frame(msg(1)) + frame(msg(2)));
      assert.ok(
        notices.length > 0 && notices.every((n) => /^JSON-RPC input: .* was skipped/.test(n)),
        notices.join('\n'),
      );
    }
  });

  it('reads past a message above the cap without keeping it, and takes the next one', async () => {
    const big = msg(1, 'y'.repeat(5000));
    const { bytes, notices } = await through([Buffer.from(frame(big) + frame(msg(2)))], {
      maxMessageBytes: 1000,
    });
    assert.equal(bytes.toString(), frame(msg(2)));
    assert.match(notices[0] ?? '', /a message of \d+ bytes \(more than 1000\) was read past/);
  });

  it('a flood of garbage is read through (within the test timeout) and reported by its first lines only', async () => {
    // 2 MB of 100,000 bad header blocks: searching the whole rest again per block would take hours.
    const flood = Buffer.from('Content-Length: x\r\n\r\n'.repeat(100_000) + frame(msg(7)));
    const { bytes, notices } = await through([flood]);
    assert.equal(bytes.toString(), frame(msg(7)));
    assert.equal(notices.length, 20);
  });
});
