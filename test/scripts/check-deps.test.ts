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

  it("names an import of a package's own file, past its entry points", async () => {
    const root = newStateDir();
    mkdirSync(join(root, 'node_modules', 'plain'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'plain', 'package.json'), '{"name":"plain"}');
    mkdirSync(join(root, 'node_modules', 'mapped'), { recursive: true });
    writeFileSync(
      join(root, 'node_modules', 'mapped', 'package.json'),
      '{"name":"mapped","exports":{".":"./a.js","./b":"./b.js"}}',
    );
    mkdirSync(join(root, 'src', 'upstream'), { recursive: true });
    writeFileSync(
      join(root, 'src', 'upstream', 'a.ts'),
      "import x from 'plain/lib/x.js';\nimport y from 'plain';\nimport b from 'mapped/b';\nexport { x, y, b };\n",
    );
    const failed = await run(process.execPath, [CHECK, root]).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n').slice(1)).toEqual([
      "src/upstream/a.ts: 'plain/lib/x.js' is a file of plain, not an entry point (docs/decisions/015)",
    ]);
  });
});
