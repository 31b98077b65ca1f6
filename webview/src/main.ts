/** Webview entry (bundled to dist/webview.js, iife): picks the transport and starts the app. */
import './styles.css';
import { DashboardApp } from './app';
import { HostClient, vscodeTransport } from './transport';

function start(): void {
  const mount = document.getElementById('app');
  if (!mount) return;
  const transport = vscodeTransport();
  const client = new HostClient(transport);
  const app = new DashboardApp(mount, client, transport);
  // For tests and the bench: the ladder (its render returns the time it took).
  (window as unknown as { __dlmmDashboard: unknown }).__dlmmDashboard = { ladder: app.ladder };
}

start();
