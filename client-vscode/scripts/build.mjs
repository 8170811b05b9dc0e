// Bundles the extension into dist/ (and, with --tests, the unit tests into out-test/
// with the `vscode` module replaced by test/vscode-stub.ts). Offline: esbuild only.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  logLevel: 'info',
  absWorkingDir: root,
};

if (args.has('--tests')) {
  rmSync(join(root, 'out-test'), { recursive: true, force: true });
  const entryPoints = readdirSync(join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/${f}`);
  await esbuild.build({
    ...common,
    entryPoints,
    outdir: 'out-test',
    sourcemap: 'inline',
    alias: { vscode: './test/vscode-stub.ts' },
    logLevel: 'warning',
  });
} else {
  const options = {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    minify: args.has('--production'),
    sourcemap: !args.has('--production'),
  };
  if (args.has('--watch')) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    await esbuild.build(options);
  }
}
