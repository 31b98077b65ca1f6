/**
 * zod compiles fast object parsers with `new Function` unless told not to; the webview's CSP forbids eval
 * (script-src is nonce-only), and zod's probe for it alone would log a CSP violation. Imported first.
 */
import * as z from 'zod';

z.config({ jitless: true });
