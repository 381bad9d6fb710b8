#!/usr/bin/env node
// @ts-check
/**
 * What a new user downloads and waits for: the desktop bundle's size (packed and unpacked, built as
 * `npm run bundle` builds it) and the npm package's cold start, from an installed tarball (as `npx`
 * leaves it) to the first `initialize` answer over stdio, median of several starts. Prints numbers.
 *
 *   npm run build && node tools/bench/distribution.mjs [--starts 10]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { percentile, ROOT } from './processes.mjs';
import { countOption, figure, saveResults } from './results.mjs';

const { values } = parseArgs({ options: { starts: { type: 'string', default: '10' } } });
const STARTS = countOption(values, 'starts', 100);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MCPB = join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');

function sizeOf(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const work = mkdtempSync(join(tmpdir(), 'svc-mcp-dist-bench-'));
try {
  const bundle = join(work, 'svc-mcp.mcpb');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs'), '--out', bundle], { stdio: 'ignore' });
  execFileSync(process.execPath, [MCPB, 'unpack', bundle, join(work, 'unpacked')], { stdio: 'ignore' });
  const unpacked = sizeOf(join(work, 'unpacked'));
  console.log(
    `bundle: ${mb(statSync(bundle).size)} packed, ${mb(unpacked.bytes)} unpacked, ${unpacked.files} files`,
  );

  const packed = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const tarball = join(work, JSON.parse(packed)[0].filename);
  const prefix = join(work, 'user');
  writeFileSync(join(work, 'package.json'), '{}');
  execFileSync(
    npm,
    ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', prefix, tarball],
    {
      cwd: work,
      stdio: 'ignore',
    },
  );
  const installed = sizeOf(join(prefix, 'node_modules'));
  console.log(
    `npm package: ${mb(statSync(tarball).size)} tarball, ${mb(installed.bytes)} installed with its dependencies`,
  );

  const bin = join(prefix, 'node_modules', '.bin', process.platform === 'win32' ? 'svc-mcp.cmd' : 'svc-mcp');
  const samples = [];
  for (let i = 0; i < STARTS; i++) {
    const transport = new StdioClientTransport({
      command: bin,
      args: [],
      env: { PATH: process.env.PATH, SVC_STATE_DIR: join(work, 'state') },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'bench', version: '1' });
    const started = performance.now();
    await client.connect(transport);
    samples.push(performance.now() - started);
    await client.close();
  }
  console.log(
    `cold start, installed package to the initialize answer (${STARTS} starts): median ${percentile(samples, 50).toFixed(0)} ms, slowest ${Math.max(...samples).toFixed(0)} ms`,
  );
  const MB = 1024 * 1024;
  saveResults('distribution', 'node tools/bench/distribution.mjs', [
    figure('desktop bundle, packed', statSync(bundle).size / MB, 'MB', { most: 5 }),
    figure('desktop bundle, unpacked', unpacked.bytes / MB, 'MB'),
    figure('npm tarball', statSync(tarball).size / MB, 'MB'),
    figure('npm package installed with its dependencies', installed.bytes / MB, 'MB'),
    figure('cold start, installed package to the initialize answer, median', percentile(samples, 50), 'ms'),
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
