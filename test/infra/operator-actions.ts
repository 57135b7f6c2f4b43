import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The IAM actions the operator's tools need, derived from their source rather than listed by hand:
 * the AWS SDK commands the admin CLI can send (every module `tools/admin/` reaches through its
 * imports) and the `aws <service> <operation>` commands of docs/operations.md. A command this file
 * cannot map fails the derivation, so a new command is reviewed before the policy test passes.
 */

const repoRoot = path.join(import.meta.dirname, '..', '..');

/** Where an SDK command's IAM service prefix comes from: the client package it is imported from. */
const sdkServices: Readonly<Record<string, string>> = {
  '@aws-sdk/client-api-gateway': 'apigateway',
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/client-dynamodb-streams': 'dynamodb',
  '@aws-sdk/client-lambda': 'lambda',
  '@aws-sdk/client-sqs': 'sqs',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
};

/** IAM checks each item of a transaction by its kind; the store's transactions may hold any of them. */
const transactionItemActions = [
  'dynamodb:ConditionCheckItem',
  'dynamodb:DeleteItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
];

/**
 * SDK commands whose IAM actions are not `<service>:<command name>`: the document client's short
 * names, transactions, Lambda's Invoke, API Gateway's verbs on paths, and SQS's message move task,
 * which receives, deletes and sends with the caller's permissions.
 */
const sdkCommandActions: Readonly<Record<string, readonly string[]>> = {
  'apigateway:FlushStageAuthorizersCache': ['apigateway:DELETE'],
  'apigateway:GetRestApis': ['apigateway:GET'],
  'dynamodb:BatchGet': ['dynamodb:BatchGetItem'],
  'dynamodb:BatchWrite': ['dynamodb:BatchWriteItem'],
  'dynamodb:Delete': ['dynamodb:DeleteItem'],
  'dynamodb:Get': ['dynamodb:GetItem'],
  'dynamodb:Put': ['dynamodb:PutItem'],
  'dynamodb:TransactGet': ['dynamodb:GetItem'],
  'dynamodb:TransactGetItems': ['dynamodb:GetItem'],
  'dynamodb:TransactWrite': transactionItemActions,
  'dynamodb:TransactWriteItems': transactionItemActions,
  'dynamodb:Update': ['dynamodb:UpdateItem'],
  'lambda:Invoke': ['lambda:InvokeFunction'],
  'sqs:StartMessageMoveTask': [
    'sqs:DeleteMessage',
    'sqs:GetQueueAttributes',
    'sqs:ReceiveMessage',
    'sqs:SendMessage',
    'sqs:StartMessageMoveTask',
  ],
};

/** Services whose actions are never the command's name (API Gateway's are HTTP verbs): each needs an entry above. */
const servicesWithoutNamedActions = new Set(['apigateway']);

/** What restoring into a new table needs: DynamoDB writes the restored items with the caller's permissions. */
const restoreTargetActions = [
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:UpdateItem',
];

/** CLI services whose IAM prefix is another word: SES v2's commands are `aws sesv2 …`, its actions `ses:…`. */
const cliServicePrefixes: Readonly<Record<string, string>> = { sesv2: 'ses' };

/** Runbook commands whose IAM actions are not `<service>:<PascalCase operation>`. */
const cliCommandActions: Readonly<Record<string, readonly string[]>> = {
  'apigateway flush-stage-authorizers-cache': ['apigateway:DELETE'],
  'apigateway get-rest-apis': ['apigateway:GET'],
  'backup start-restore-job': ['backup:StartRestoreJob', 'iam:PassRole'],
  // The restored table is encrypted with the data key, for which DynamoDB creates a grant.
  'dynamodb restore-table-to-point-in-time': [
    'dynamodb:RestoreTableToPointInTime',
    ...restoreTargetActions,
    'kms:CreateGrant',
  ],
  // A waiter polls the table's description until it reaches the state asked for.
  'dynamodb wait': ['dynamodb:DescribeTable'],
  'lambda invoke': ['lambda:InvokeFunction'],
};

/**
 * Runbook commands the operator's policy deliberately does not allow, each with who runs it instead
 * (docs/operations.md, "The operator's permissions", says the same).
 */
export const commandsForAdministrators: Readonly<Record<string, string>> = {
  'backup update-region-settings': 'an account-wide setting, changed once per account by its administrator',
  'sesv2 put-account-suppression-attributes':
    'the account-level SES suppression list is an account-wide setting, turned on once by its administrator',
  'iam attach-role-policy': 'attaching this policy is an IAM administrator’s step',
  'sso-admin attach-customer-managed-policy-reference-to-permission-set':
    'attaching this policy to a permission set is an IAM Identity Center administrator’s step',
  // Rotating the Stripe secrets (docs/operations.md): the platform's live key is no operator's to write.
  'secretsmanager put-secret-value':
    'the Stripe secrets hold the platform’s live key: its administrator writes them',
  'secretsmanager delete-secret': 'the Stripe secrets are created and retired by the account’s administrator',
  'lambda update-function-configuration':
    'changing a function outside a deploy is for whoever deploys the stage',
  'lambda publish-version': 'publishing a version outside a deploy is for whoever deploys the stage',
};

export interface DerivedAction {
  readonly action: string;
  /** The command that needs it: `tools/admin/x.ts: GetQueueUrlCommand` or `aws sqs get-queue-url`. */
  readonly neededBy: string;
}

/** The SDK commands every module reachable from `tools/admin/` constructs, and their IAM actions. */
export function adminCliActions(): DerivedAction[] {
  const derived: DerivedAction[] = [];
  for (const file of modulesReachedFrom(path.join(repoRoot, 'tools', 'admin'))) {
    const source = readFileSync(file, 'utf8');
    const packages = sdkImports(source);
    const relative = path.relative(repoRoot, file);
    // `new GetQueueUrlCommand(` sends GetQueueUrl; `paginateGetRestApis(` sends GetRestApis.
    const calls = source.matchAll(/\bnew (([A-Z]\w*)Command)\(|\b(paginate([A-Z]\w*))\(/g);
    for (const [, command, commandOperation, paginator, paginatedOperation] of calls) {
      const imported = command ?? paginator ?? '';
      const operation = commandOperation ?? paginatedOperation ?? '';
      const sdkPackage = packages.get(imported);
      if (sdkPackage === undefined)
        throw new Error(`${relative}: ${imported} is not imported from an AWS SDK client`);
      for (const action of sdkActionsOf(sdkPackage, operation, relative)) {
        derived.push({ action, neededBy: `${relative}: ${imported}` });
      }
    }
  }
  return derived;
}

function sdkActionsOf(sdkPackage: string, operation: string, file: string): readonly string[] {
  const service = sdkServices[sdkPackage];
  if (service === undefined)
    throw new Error(`${file}: no IAM service known for ${sdkPackage}; add it to sdkServices`);
  const mapped = sdkCommandActions[`${service}:${operation}`];
  if (mapped !== undefined) return mapped;
  if (servicesWithoutNamedActions.has(service)) {
    throw new Error(`${file}: ${operation} of ${service} needs its IAM action in sdkCommandActions`);
  }
  return [`${service}:${operation}`];
}

/** Named imports from AWS SDK packages, by the name the module uses: `{ X as Y }` is Y. */
function sdkImports(source: string): Map<string, string> {
  const imports = new Map<string, string>();
  for (const [, names = '', from = ''] of source.matchAll(
    /import\s*\{([^}]*)\}\s*from\s*'(@aws-sdk\/[^']+)'/g,
  )) {
    for (const entry of names.split(',')) {
      const [original, local = original] = entry
        .replace(/^\s*type\s+/, '')
        .trim()
        .split(/\s+as\s+/);
      if (original !== undefined && original !== '') imports.set(local ?? original, from);
    }
  }
  return imports;
}

/**
 * Every module `folder`'s modules import, directly or through others (type-only imports load no
 * code and are left out). `tools/local/` is left out too: it is what `--local` talks to, DynamoDB
 * Local and the runtime's operator socket, never AWS.
 */
function modulesReachedFrom(folder: string): string[] {
  const entries = listTypeScript(folder);
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier = ''] of source.matchAll(
      /^(?:import|export)(?!\s+type\b)[^;]*?from\s*'(\.{1,2}\/[^']+)'/gms,
    )) {
      const target = resolveModule(path.dirname(file), specifier);
      if (!target.startsWith(path.join(repoRoot, 'tools', 'local') + path.sep)) pending.push(target);
    }
  }
  return [...seen].sort();
}

function listTypeScript(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(folder, name));
}

function resolveModule(from: string, specifier: string): string {
  const base = path.resolve(from, specifier);
  const candidates = [base, `${base}.ts`, path.join(base, 'index.ts')];
  const found = candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
  if (found === undefined)
    throw new Error(`cannot resolve ${specifier} from ${path.relative(repoRoot, from)}`);
  return found;
}

/** `aws <service> <operation>` in docs/operations.md, with the runbook's line breaks taken out. */
export function runbookCommands(): string[] {
  const runbook = readFileSync(path.join(repoRoot, 'docs', 'operations.md'), 'utf8').replaceAll(/\s+/g, ' ');
  const commands = [...runbook.matchAll(/\baws ([a-z0-9-]+) ([a-z][a-z0-9-]*)/g)].map(
    ([, service, operation]) => `${service} ${operation}`,
  );
  return [...new Set(commands)].sort();
}

/** The IAM actions of the runbook's commands, except those for administrators. */
export function runbookActions(): DerivedAction[] {
  return runbookCommands()
    .filter((command) => commandsForAdministrators[command] === undefined)
    .flatMap((command) => {
      const [service = '', operation = ''] = command.split(' ');
      const prefix = cliServicePrefixes[service] ?? service;
      const actions = cliCommandActions[command] ?? [`${prefix}:${pascalCase(operation)}`];
      return actions.map((action) => ({ action, neededBy: `aws ${command}` }));
    });
}

function pascalCase(kebab: string): string {
  return kebab
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
