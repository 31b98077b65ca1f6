/**
 * The editor benches' peer: yaml-language-server (the devDependency) validating plan files against our JSON
 * Schema, started over stdio JSON-RPC with the settings a user of the YAML extension would give it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, startLsp, type LspSession } from '../integration/lsp/harness';

export async function startYamlLanguageServer(): Promise<LspSession> {
  const bin = join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
  const schema = pathToFileURL(join(ROOT, 'schemas', 'dlmm-plan.schema.json')).toString();
  const yamlSettings = {
    validate: true,
    hover: true,
    completion: true,
    schemas: { [schema]: '*.dlmm.yaml' },
    schemaStore: { enable: false },
  };
  const yls = await startLsp({
    command: { cmd: process.execPath, args: [bin, '--stdio'] },
    configuration: (section) =>
      section === 'yaml' ? yamlSettings : section === 'http' ? { proxyStrictSSL: false } : {},
  });
  void yls.conn.sendNotification('workspace/didChangeConfiguration', { settings: { yaml: yamlSettings } });
  return yls;
}
