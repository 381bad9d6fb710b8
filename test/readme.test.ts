/**
 * The README's commands run as written: every `node dist/cli.js …` line of its "From a clone"
 * section, copied from the README itself, runs on a fresh build and succeeds (the sandbox command,
 * which keeps running, must print its address).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, WORKER_STATE_DIR } from './helpers/cli.js';
import { record } from './helpers/recorder.js';

function quickStartCommands(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## From a clone'),
    readme.indexOf('\n## ', readme.indexOf('## From a clone') + 3),
  );
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('node dist/cli.js'));
}

function run(command: string, untilOutput?: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command.replace(/^node /, `exec "${process.execPath}" `)], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', SVC_STATE_DIR: WORKER_STATE_DIR },
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
