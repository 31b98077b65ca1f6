/** The wallet session server on loopback: routes, token, bodies, answers and its end (no browser here). */
import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { Cl } from '@stacks/transactions';
import { allAnswered, answerLine, answersDocument, printable } from '../../../core/wallet/answers';
import { jsonForScript } from '../../../core/wallet/page';
import { startWalletSession, type WalletSession } from '../../../core/wallet/session';
import type { BuiltTransaction } from '../../../core/tx/types';
import { PUBLIC_KEY, USER } from '../tx/fixtures';

const tx: BuiltTransaction = {
  opId: 'a',
  opIndex: 0,
  op: 'add',
  mode: 'strict',
  part: 1,
  parts: 1,
  network: 'mainnet',
  contract: 'SM1FKXGNZJWSTWDWXQZJNF7B5TV5ZB235JTCXYXKD.dlmm-liquidity-router-v-1-2',
  functionName: 'add-liquidity-multi',
  functionArgs: [Cl.uint(1)],
  argNames: ['x'],
  postConditions: [],
  postConditionWords: [],
  postConditionMode: 'deny',
  rows: [],
  totals: [],
  notes: [],
  deadline: null,
};

function http(
  url: string,
  method = 'GET',
  body?: string,
): Promise<{ status: number | string; text: string }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method, agent: false, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (e) => resolve({ status: (e as NodeJS.ErrnoException).code ?? 'error', text: '' }));
    req.end(body);
  });
}

describe('wallet session server', () => {
  let s: WalletSession | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('listens on 127.0.0.1 only, under a random token; other paths and methods are 404', async () => {
    s = await startWalletSession({ transactions: [tx], sender: USER, plan: 'p.dlmm.yaml', script: '' });
    const other = await startWalletSession({
      transactions: [tx],
      sender: USER,
      plan: 'p.dlmm.yaml',
      script: '',
    });
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/);
    assert.notEqual(new URL(s.url).pathname, new URL(other.url).pathname, 'each session has its own token');
    await other.close();
    const page = await http(s.url);
    assert.equal(page.status, 200);
    assert.match(page.text, /script-src &#39;nonce-[A-Za-z0-9+/]+=*&#39;/);
    // No remote resource: nothing is loaded by src or link.
    assert.doesNotMatch(page.text, /\ssrc=|<link/);
    const origin = new URL(s.url).origin;
    for (const path of [
      '/',
      '/favicon.ico',
      `${new URL(s.url).pathname}x`,
      `${new URL(s.url).pathname}done`,
    ]) {
      assert.equal((await http(origin + path)).status, 404, path);
    }
    assert.equal((await http(s.url, 'PUT')).status, 404);
  });

  it('takes valid answers only, and reports each as it arrives', async () => {
    const seen: string[] = [];
    s = await startWalletSession({
      transactions: [tx],
      sender: USER,
      plan: 'p.dlmm.yaml',
      script: '',
      onAnswer: (a, labels) => seen.push(answerLine(a, labels)),
    });
    assert.equal((await http(s.url + 'answer', 'POST', 'not json')).status, 400);
    assert.equal(
      (await http(s.url + 'answer', 'POST', JSON.stringify({ index: 5, method: 'x' }))).status,
      400,
    );
    assert.equal(
      (await http(s.url + 'answer', 'POST', JSON.stringify({ index: 0, method: 'x', txid: 'zz' }))).status,
      400,
    );
    const ok = await http(
      s.url + 'answer',
      'POST',
      JSON.stringify({
        index: 0,
        method: 'stx_callContract',
        error: { code: -31001, message: 'closed\u001b[2J' },
      }),
    );
    assert.equal(ok.status, 200);
    assert.deepEqual(seen, ['#1 operation a: cancelled (-31001): closed\\u001b[2J']);
  });

  it('an answer quoting an abort code carries its explanation (dlmm wallet and Send to Wallet print answerLine)', async () => {
    const seen: string[] = [];
    s = await startWalletSession({
      transactions: [tx],
      sender: USER,
      plan: 'p.dlmm.yaml',
      script: '',
      onAnswer: (a, labels) => seen.push(answerLine(a, labels)),
    });
    const answer = {
      index: 0,
      method: 'stx_callContract',
      error: { code: -32603, message: 'transaction would abort: (err u5008)' },
    };
    assert.equal((await http(s.url + 'answer', 'POST', JSON.stringify(answer))).status, 200);
    assert.equal(seen.length, 1);
    assert.match(
      seen[0]!,
      /^#1 operation a: the wallet's internal error \(-32603\): transaction would abort: \(err u5008\)\n {2}explain: u5008 ERR_ACTIVE_BIN_TOLERANCE \(dlmm-liquidity-router-v-1-1, dlmm-liquidity-router-v-1-2\): the active bin moved more than the tolerance/,
    );
    const doc = answersDocument({
      plan: 'p.dlmm.yaml',
      sender: USER,
      network: 'mainnet',
      labels: [{ operation: 'a', part: 1, parts: 1 }],
      answers: [answer],
      ended: 'now',
    });
    assert.match(doc.answers[0]!.error!.abort_explained![0]!, /^u5008 ERR_ACTIVE_BIN_TOLERANCE/);
    // No code quoted: no explanation.
    assert.doesNotMatch(answerLine({ ...answer, error: { code: -32000, message: 'no' } }, []), /explain/);
  });

  it("builds the exact-nonce transactions only for the sender's public key", async () => {
    s = await startWalletSession({ transactions: [tx], sender: USER, plan: 'p.dlmm.yaml', script: '' });
    const good = JSON.parse(
      (
        await http(
          s.url + 'unsigned',
          'POST',
          JSON.stringify({ publicKey: PUBLIC_KEY, nonce: '3', fee: '100' }),
        )
      ).text,
    ) as { ok: boolean; transactions: string[] };
    assert.equal(good.ok, true);
    assert.equal(good.transactions.length, 1);
    const otherKey = '02' + '33'.repeat(32);
    const bad = await http(
      s.url + 'unsigned',
      'POST',
      JSON.stringify({ publicKey: otherKey, nonce: '3', fee: '100' }),
    );
    assert.equal(bad.status, 400);
    assert.match(bad.text, /plan's sender is/);
  });

  it('ends on done (then nothing listens) and on its time limit', async () => {
    s = await startWalletSession({ transactions: [tx], sender: USER, plan: 'p.dlmm.yaml', script: '' });
    assert.equal((await http(s.url + 'done', 'POST', '{}')).status, 200);
    assert.deepEqual(await s.done, { end: 'done', answers: [] });
    assert.equal((await http(s.url)).status, 'ECONNREFUSED');
    const t = await startWalletSession({
      transactions: [tx],
      sender: USER,
      plan: 'p.dlmm.yaml',
      script: '',
      timeoutMs: 50,
    });
    assert.equal((await t.done).end, 'timeout');
    assert.equal((await http(t.url)).status, 'ECONNREFUSED');
  });

  it('answers: completeness, printable text, script-safe JSON', () => {
    assert.equal(allAnswered([{ index: 0, method: 'm', txid: 'ab' }], 1), true);
    assert.equal(allAnswered([{ index: 0, method: 'm', error: { code: -32000, message: '' } }], 1), false);
    assert.equal(allAnswered([], 1), false);
    assert.equal(printable('a\nb'), 'a\\u000ab');
    assert.doesNotMatch(jsonForScript({ x: '</script><b>' }), /<|>/);
  });
});
