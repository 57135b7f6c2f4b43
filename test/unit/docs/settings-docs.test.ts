import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Setting } from '../../../functions/settings/setting';
import { LocalVariables } from '../../../tools/local/settings';
import { ReceiverVariables } from '../../../tools/webhook-receiver/receiver-settings';

const guide = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');

/** The `Variable | Default | Meaning` rows under the heading `## \`<command>\`` of docs/configuration.md. */
function documentedVariables(command: string): Map<string, string> {
  const start = guide.indexOf(`## \`${command}\`\n`);
  expect(start, `docs/configuration.md has no heading for ${command}`).toBeGreaterThan(-1);
  const end = guide.indexOf('\n#', start + 1);
  const section = guide.slice(start, end === -1 ? undefined : end);
  const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm)];
  return new Map(rows.map((row) => [row[1] ?? '', (row[2] ?? '').trim()]));
}

describe.each([
  ['npm start', LocalVariables],
  ['npm run webhook-receiver', ReceiverVariables],
] as const)(
  'docs/configuration.md settings of %s',
  (command, variables: Record<string, Setting<unknown>>) => {
    it('lists exactly the variables the command reads', () => {
      expect([...documentedVariables(command).keys()].sort()).toEqual(Object.keys(variables).sort());
    });

    it('states the default the command applies', () => {
      const documented = documentedVariables(command);
      for (const [variable, setting] of Object.entries(variables)) {
        if (setting.defaultText === undefined) continue;
        expect({ variable, default: documented.get(variable) }).toEqual({
          variable,
          default: `\`${setting.defaultText}\``,
        });
      }
    });
  },
);

describe('docs/configuration.md settings of the admin CLI', () => {
  it('lists the variables of its own', () => {
    const documented = documentedVariables('npm run admin');
    expect([...documented.keys()]).toEqual(expect.arrayContaining(['LOCAL_STATE_DIR', 'TABLE_NAME']));
  });
});
