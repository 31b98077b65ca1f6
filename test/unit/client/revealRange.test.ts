/**
 * The dashboard's `revealRange` (webview -> host) opens only plan files of the workspace, whatever URI the
 * page sends: the real host code (client/src/dashboard/host.ts has no vscode import) with recording deps.
 */
import assert from 'node:assert/strict';
import { createDashboardHost, isWorkspacePlanUri } from '../../../client/src/dashboard/host';
import type { HostMessage } from '../../../webview/src/protocol';

const FOLDERS = ['file:///home/lp/plans', 'vscode-remote://ssh-remote%2Bbox/srv/work'];

describe('dashboard revealRange: plan files of the workspace only', () => {
  it('accepts plan files below a workspace folder', () => {
    for (const uri of [
      'file:///home/lp/plans/rebalance.dlmm.yaml',
      'file:///home/lp/plans/deep/er/swap.dlmm.yml',
      'file:///home/lp/plans/x.DLMM.JSON',
      'file:///home/lp/plans/with%20space.dlmm.yaml',
      'vscode-remote://ssh-remote%2Bbox/srv/work/a.dlmm.json',
    ])
      assert.equal(isWorkspacePlanUri(uri, FOLDERS), true, uri);
  });

  it('refuses other files, other places and tricks', () => {
    for (const uri of [
      'file:///home/lp/plans/notes.yaml', // not a plan file
      'file:///home/lp/plans/x.dlmm.yaml.exe',
      'file:///etc/passwd',
      'file:///home/lp/other/x.dlmm.yaml', // outside every folder
      'file:///home/lp/plans-evil/x.dlmm.yaml', // a sibling sharing the folder's prefix
      'file:///home/lp/plans/../secret/x.dlmm.yaml', // normalized out of the folder
      'file:///home/lp/plans/%2e%2e/secret/x.dlmm.yaml', // encoded dot segment
      'file:///home/lp/plans/a%2F..%2F..%2Fx.dlmm.yaml', // encoded slashes hiding one
      'file:///home/lp/plans/a%5C..%5Cx.dlmm.yaml', // backslashes
      'file:///home/lp/plans/x.dlmm.yaml?query=1',
      'file:///home/lp/plans/x.dlmm.yaml#frag',
      'file://evil-host/home/lp/plans/x.dlmm.yaml', // another authority
      'untitled:Untitled-1.dlmm.yaml',
      'command:dlmm.exportUnsigned?x.dlmm.yaml',
      'https://example.com/home/lp/plans/x.dlmm.yaml',
      'vscode-remote://ssh-remote%2Bother/srv/work/a.dlmm.json',
      'not a uri',
      '',
    ])
      assert.equal(isWorkspacePlanUri(uri, FOLDERS), false, uri);
    assert.equal(isWorkspacePlanUri('file:///home/lp/plans/x.dlmm.yaml', []), false, 'no workspace: nothing');
  });

  it('the host opens an accepted plan and answers a refused URI with a notice, never opening it', async () => {
    const opened: string[] = [];
    const posted: HostMessage[] = [];
    const host = createDashboardHost({
      getApi: () => undefined,
      getActivePlan: async () => undefined,
      senderSetting: () => undefined,
      post: (m) => posted.push(m),
      revealRange: async (uri) => {
        opened.push(uri);
      },
      workspaceFolders: () => FOLDERS,
      lastPool: { get: () => undefined, set: () => undefined },
      exportSwap: { available: async () => false, run: async () => undefined },
    });
    await host.receive({
      type: 'revealRange',
      uri: 'file:///home/lp/plans/a.dlmm.yaml',
      offset: 3,
      length: 4,
    });
    await host.receive({ type: 'revealRange', uri: 'file:///etc/passwd', offset: 0, length: 1 });
    await host.receive({
      type: 'revealRange',
      uri: 'file:///home/lp/plans/../../../root/.ssh/id.dlmm.yaml',
      offset: 0,
      length: 1,
    });
    assert.deepEqual(opened, ['file:///home/lp/plans/a.dlmm.yaml']);
    const notices = posted.filter((m) => m.type === 'notice');
    assert.equal(notices.length, 2);
    for (const n of notices)
      assert.match((n as { message: string }).message, /only opens plan files .* of this workspace/);
  });
});
