/** The stdio JSON-RPC writer: the messages of one event-loop turn in one write, each framed as LSP says. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-languageserver-protocol/node';
import { BatchedStreamWriter } from '../../../server/src/stdioWriter';

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (b: Buffer) => chunks.push(b.toString('utf8')));
  return { stream, chunks };
}

const note = (n: number, text = 'x'): Message =>
  ({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: 4, message: `${n} ${text}` } }) as Message;

describe('BatchedStreamWriter', () => {
  it('writes the messages of one turn as one chunk, in order, read back by the protocol reader', async () => {
    const { stream, chunks } = capture();
    const writer = new BatchedStreamWriter(stream);
    // Non-ASCII text: Content-Length counts bytes, not characters.
    await Promise.all([writer.write(note(1, 'é€𝄞')), writer.write(note(2)), writer.write(note(3))]);
    await new Promise((r) => setImmediate(r));
    assert.equal(chunks.length, 1);
    const reader = new StreamMessageReader(PassThrough.from([Buffer.from(chunks.join(''), 'utf8')]));
    const got: Message[] = [];
    await new Promise<void>((resolve) => {
      reader.listen((m) => {
        got.push(m);
        if (got.length === 3) resolve();
      });
    });
    assert.deepEqual(got, [note(1, 'é€𝄞'), note(2), note(3)]);
    reader.dispose();
  });

  it('writes messages of later turns in later chunks, and one that cannot be serialized is refused alone', async () => {
    const { stream, chunks } = capture();
    const writer = new BatchedStreamWriter(stream);
    const errors: unknown[] = [];
    writer.onError(([e]) => errors.push(e));
    await writer.write(note(1));
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' };
    cyclic.params = cyclic;
    await assert.rejects(writer.write(cyclic as unknown as Message));
    await writer.write(note(2));
    await new Promise((r) => setImmediate(r));
    assert.equal(chunks.length, 2);
    assert.equal(errors.length, 1);
    for (const [i, chunk] of chunks.entries()) {
      const body = JSON.stringify(note(i + 1));
      assert.equal(chunk, `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    }
  });
});
