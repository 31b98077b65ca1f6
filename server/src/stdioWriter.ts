/**
 * The language server's JSON-RPC writer on stdio (dist/server.js --stdio and `dlmm lsp --stdio`). The
 * library's stream writer sends each message as two writes (header, then body once the header's write has
 * called back) and one message per event-loop turn: 150 plans opened at once made some 900 pipe writes and
 * as many loop turns just to publish their diagnostics. This one writes every message produced in one turn
 * with a single write at the end of the turn, each framed as the protocol says (`Content-Length` in bytes,
 * a blank line, the JSON body), in the order they were written.
 */
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver-protocol/node';

export class BatchedStreamWriter extends AbstractMessageWriter implements MessageWriter {
  private pending: string[] = [];
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;
  private errorCount = 0;

  constructor(private readonly stream: NodeJS.WritableStream) {
    super();
    stream.on('error', (error: unknown) => this.fireError(error));
    stream.on('close', () => this.fireClose());
    // Messages still queued when the process exits (a log line right before `exit`) are written first: a
    // write to a pipe or file on stdout is synchronous.
    process.once('exit', () => this.flush());
  }

  write(msg: Message): Promise<void> {
    let body: string;
    try {
      body = JSON.stringify(msg);
    } catch (error) {
      this.fail(error, msg);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.pending.push(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n`, body);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  end(): void {
    this.flush();
    this.stream.end();
  }

  /** Writes what is queued, as one chunk. */
  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    try {
      this.stream.write(chunk, 'utf8', (error?: Error | null) => {
        if (error) {
          this.fail(error);
          for (const w of waiters) w.reject(error);
        } else {
          this.errorCount = 0;
          for (const w of waiters) w.resolve();
        }
      });
    } catch (error) {
      this.fail(error);
      for (const w of waiters) w.reject(error);
    }
  }

  private fail(error: unknown, msg?: Message): void {
    this.errorCount++;
    this.fireError(error, msg, this.errorCount);
  }
}
