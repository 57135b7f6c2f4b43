import { runAdmin } from '../../tools/admin/cli';
import type { AdminEnv } from '../../tools/admin/target';

/** The admin CLI run in this process, as `bin/admin.ts` runs it, with what it printed kept apart. */
export async function runAdminInProcess(
  args: readonly string[],
  env: AdminEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
  });
  return { code, stdout, stderr };
}
