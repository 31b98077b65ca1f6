/** esbuild bundles CSS imports into dist/webview.css; the import itself has no value. */
declare module '*.css';
