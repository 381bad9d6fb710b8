/**
 * The README's commands run as written: every `node dist/cli.js …` line of its "From a clone"
 * section, copied from the README itself, runs on a fresh build and succeeds (the sandbox command,
 * which keeps running, must print its address); its `npm start` line puts nothing but protocol on
 * stdout. (The tarball way is run in test/dist/npm-package.test.ts.)
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fileStateDir, REPO_ROOT } from './helpers/cli.js';
import { readmeCommands } from './helpers/readme.js';
import { record } from './helpers/recorder.js';

function quickStartCommands(): string[] {
  return readmeCommands('## From a clone').filter((line) => line.startsWith('node dist/cli.js'));
}

function run(command: string, untilOutput?: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command.replace(/^node /, `exec "${process.execPath}" `)], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', SVC_STATE_DIR: fileStateDir() },
    });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (untilOutput?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      record(`readme: ${command}`, output);
      resolve({ code, output });
    });
  });
}

describe('the README quick start', () => {
  const commands = quickStartCommands();

  it('its npm start line puts nothing but protocol on stdout', async () => {
    const start = readmeCommands('## From a clone').find((line) => line.startsWith('npm start'));
    expect(start).toBe('npm start --silent');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['start', '--silent'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SVC_STATE_DIR: fileStateDir() },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('{"result":{},"jsonrpc":"2.0","id":1}\n');
  });

  it('has the commands to run', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
  });

  for (const command of commands) {
    it(command, async () => {
      if (/ sandbox /.test(command)) {
        const { output } = await run(
          command.replace('--port 8787', '--port 0'),
          /Sandbox Market Data Service at http/,
        );
        expect(output).toMatch(/Sandbox Market Data Service at http:\/\/127\.0\.0\.1:\d+/);
        return;
      }
      const { code, output } = await run(command);
      expect(code, output).toBe(0);
      expect(output.length).toBeGreaterThan(0);
    });
  }
});
