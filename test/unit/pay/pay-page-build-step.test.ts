import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildPayPage, payPageModuleText, payPageModuleUrl } from '../../../functions/pay/build-pay-page';
import { routeList, routes } from '../../../functions/routes';
import { bundlingOf, functionBundling, projectRoot } from '../../../lib/constructs/service-function';

const run = promisify(execFile);

describe('the pay page build step of the stack', () => {
  it('runs before esbuild bundles the pay page function, and before no other', () => {
    const portal = ['portal/serve-portal-page', 'portal/serve-portal-asset'];
    const others = routeList
      .map((route) => route.handler)
      .filter((module) => module !== 'pay/serve-pay-page' && !portal.includes(module));
    for (const module of others) expect(bundlingOf(module)).toBe(functionBundling);
    // The portal's functions build the portal instead, and only it.
    for (const module of portal) {
      const [command, ...more] = bundlingOf(module).commandHooks?.beforeBundling('/in', '/out') ?? [];
      expect(more).toEqual([]);
      expect(command).toMatch(/ --import tsx bin\/portal-page\.ts$/);
    }
    const hooks = bundlingOf(routes.servePayPage.handler).commandHooks;
    expect(hooks?.beforeBundling('/in', '/out')).toHaveLength(1);
    expect(hooks?.afterBundling('/in', '/out')).toEqual([]);
  });

  it('writes the built page module when run as CDK runs it: bash in the project root', async () => {
    const [command] =
      bundlingOf(routes.servePayPage.handler).commandHooks?.beforeBundling('/in', '/out') ?? [];
    const before = Date.now();
    const { stdout } = await run('bash', ['-c', String(command)], { cwd: projectRoot });
    expect(stdout).toMatch(
      /^Built the pay page into functions\/pay\/pay-page-document\.js \(\d+ bytes\)\.\n$/,
    );
    expect(await readFile(payPageModuleUrl, 'utf8')).toBe(payPageModuleText(await buildPayPage()));
    // Unchanged text is left alone, so the file is no newer than the run's own global setup wrote it.
    expect((await stat(payPageModuleUrl)).mtimeMs).toBeLessThan(before);
  }, 60_000);
});
