import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime } from '../../support/local-runtime';
import { runToEnd } from '../../support/spawned-process';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');

/**
 * A merchant's project, outside the repository: strict TypeScript, the tarball installed, and Node's
 * types (linked from the repository's, as a Node project has them).
 */
let project: string;
let tarball: string;

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  },
};

const sample = `import { MerchantPayments, MerchantPaymentsError, type WebhookEvent, webhooks } from 'merchant-payments';

const client = new MerchantPayments({
  apiKey: 'merchant_sbxAbCdEfGhIj_secret',
  merchantId: 'mer_01h455vb4pex5vsknk084sn02q',
  baseUrl: 'http://127.0.0.1:3000',
});

export async function flow(): Promise<number> {
  const customer = await client.customers.create({ name: 'Ada', email: 'ada@example.com' });
  const product = await client.catalog.products.create({ name: 'Tea' });
  const price = await client.prices.create(product.productId, { unitAmount: 1800, currency: 'USD' });
  const invoice = await client.invoices.create({
    customerId: customer.customerId,
    currency: 'USD',
    lineItems: [{ kind: 'product_charge', productId: product.productId, priceId: price.priceId, quantity: 1 }],
  });
  const issued = await client.invoices.issue(invoice.invoiceId, { idempotencyKey: 'issue-1' });
  let count = 0;
  for await (const listed of client.invoices.list({ status: 'issued' })) count += listed.total.amount;
  const page = await client.payments.list({ limit: 10 }).page();
  try {
    await client.invoices.void(issued.invoiceId);
  } catch (error) {
    if (error instanceof MerchantPaymentsError && error.code === 'invalid_state') count += 1;
  }
  return count + page.items.length;
}

export function onDelivery(rawBody: Uint8Array, headers: Record<string, string>, secret: string): string {
  const event: WebhookEvent = webhooks.verify(rawBody, headers, secret);
  switch (event.type) {
    case 'invoices.InvoicePaid':
      return event.data.invoiceId;
    case 'payments.PaymentCreated':
      return event.data.paymentId;
    default:
      return event.id;
  }
}
`;

const wrongId = `import { MerchantPayments } from 'merchant-payments';

const client = new MerchantPayments({
  apiKey: 'merchant_sbxAbCdEfGhIj_secret',
  merchantId: 'mer_01h455vb4pex5vsknk084sn02q',
  baseUrl: 'http://127.0.0.1:3000',
});

export async function mixUp(): Promise<void> {
  const customer = await client.customers.create({ name: 'Ada', email: 'ada@example.com' });
  await client.invoices.issue(customer.customerId);
}
`;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'merchant-payments-client-'));
  const packed = await runToEnd('npm', ['pack', '-w', 'client', '--pack-destination', project, '--silent'], {
    cwd: repoRoot,
    timeoutMs: 120_000,
  });
  expect(packed.code, packed.stderr).toBe(0);
  const [name] = (await readdir(project)).filter((file) => file.endsWith('.tgz'));
  if (name === undefined) throw new Error(`npm pack wrote no tarball: ${packed.stdout}`);
  tarball = join(project, name);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'merchant', private: true, type: 'module' }),
  );
  const installed = await runToEnd(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
    { cwd: project, timeoutMs: 120_000 },
  );
  expect(installed.code, installed.stderr).toBe(0);
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
  await mkdir(join(project, 'node_modules', '@types'), { recursive: true });
  for (const types of ['@types/node', 'undici-types'])
    await symlink(join(repoRoot, 'node_modules', types), join(project, 'node_modules', types));
  await mkdir(join(project, 'src'));
}, 180_000);

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

/** The README's first example: the ```ts block after its `<!-- client example … -->` marker. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const [, code] = /^<!-- client example:[^\n]*-->\n```ts\n([\s\S]*?)^```$/m.exec(readme) ?? [];
  if (code === undefined) throw new Error('README.md has no client example');
  return code;
}

async function typeCheck(file: string, source: string) {
  const folder = join(project, file);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'index.ts'), source);
  await writeFile(
    join(folder, 'tsconfig.json'),
    JSON.stringify({ extends: '../tsconfig.json', include: ['index.ts'] }),
  );
  return runToEnd(process.execPath, [tsc, '-p', join(folder, 'tsconfig.json')], {
    cwd: project,
    timeoutMs: 120_000,
  });
}

describe('the packed merchant-payments tarball', () => {
  it('holds the built ESM and its declarations, and no source', async () => {
    const listed = await runToEnd('tar', ['-tzf', tarball]);
    const files = listed.stdout.trim().split('\n').sort();
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/dist/generated/openapi.d.ts');
    expect(files).toContain('package/README.md');
    expect(files.filter((file) => !file.startsWith('package/dist/'))).toEqual([
      'package/README.md',
      'package/package.json',
    ]);
  });

  it('imports in Node as an ES module', async () => {
    const script =
      "import { MerchantPayments, webhooks } from 'merchant-payments'; console.log(typeof MerchantPayments, typeof webhooks.verify)";
    const run = await runToEnd(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('function function');
  });

  it('type-checks a strict project that uses it', async () => {
    const checked = await typeCheck('sample', sample);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  });

  it('type-checks the README’s first example, which then runs against the local runtime', async () => {
    const example = await readmeExample();
    const checked = await typeCheck('readme', example);
    expect(checked.stdout + checked.stderr).toBe('');
    const runtime = await startTestRuntime();
    try {
      const env = {
        ...process.env,
        MERCHANT_PAYMENTS_SANDBOX_URL: runtime.runtime.baseUrl,
        MERCHANT_PAYMENTS_API_KEY: runtime.runtime.apiKey,
        MERCHANT_PAYMENTS_MERCHANT_ID: runtime.merchantId,
      };
      const run = await runToEnd(process.execPath, [join(project, 'readme', 'index.ts')], {
        cwd: project,
        env,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^INV-\d{6} paid\npmt_[0-9a-z]{26} 1800 completed\n$/);
    } finally {
      await runtime.stop();
    }
  }, 60_000);

  it('refuses, at compile time, a customer id passed as an invoice id', async () => {
    const checked = await typeCheck('wrong-id', wrongId);
    expect(checked.code).not.toBe(0);
    const errors = checked.stdout.split('\n').filter((line) => / error TS\d+:/.test(line));
    expect(errors).toEqual([
      "wrong-id/index.ts(11,31): error TS2345: Argument of type 'Id<\"cust\">' is not assignable to parameter of type 'InvoiceId'.",
    ]);
  });
});
