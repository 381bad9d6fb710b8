/** The import rule (scripts/check-deps.mjs): the tree keeps it, and a wrong-way import is named. */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { newStateDir } from '../helpers/cli.js';

const run = promisify(execFile);
const CHECK = join(import.meta.dirname, '..', '..', 'scripts', 'check-deps.mjs');

describe('check-deps', () => {
  it('passes on the tree as it is', async () => {
    await expect(run(process.execPath, [CHECK])).resolves.toBeDefined();
  });

  it('names a file whose import runs the wrong way, and a part it does not know', async () => {
    const root = newStateDir();
    mkdirSync(join(root, 'src', 'format'), { recursive: true });
    mkdirSync(join(root, 'src', 'kit'), { recursive: true });
    mkdirSync(join(root, 'src', 'widgets'), { recursive: true });
    writeFileSync(join(root, 'src', 'kit', 'plans.ts'), 'export const PLANS = [];\n');
    writeFileSync(join(root, 'src', 'format', 'text.ts'), "import { PLANS } from '../kit/plans.js';\n");
    writeFileSync(join(root, 'src', 'widgets', 'a.ts'), 'export {};\n');
    // The sandbox witnesses the tools: it may not read it, even for a type.
    mkdirSync(join(root, 'src', 'sandbox', 'routes'), { recursive: true });
    writeFileSync(
      join(root, 'src', 'sandbox', 'routes', 'x.ts'),
      "import type { Plan } from '../../kit/plans.js';\n",
    );
    const failed = await run(process.execPath, [CHECK, root]).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("src/format/text.ts: format may not import kit ('../kit/plans.js')");
    expect(failed.stderr).toContain('src/widgets has no entry in scripts/check-deps.mjs');
    expect(failed.stderr).toContain(
      "src/sandbox/routes/x.ts: sandbox may not import kit ('../../kit/plans.js')",
    );
  });
});
