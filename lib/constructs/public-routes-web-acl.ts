import type { RemovalPolicy } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { isPublic } from '../../functions/route-definition';
import { routeList } from '../../functions/routes';
import { publicRateLimit } from './public-rate-limit';
import type { RequestCeiling } from './stage-settings';

/**
 * The web ACL's answer to an address over the limit, in the API's error shape
 * (docs/architecture.md#conventions-for-every-endpoint).
 */
export const rateLimitedBody = {
  error: { code: 'rate_limited', message: 'Too many requests, try again later.' },
} as const;

/** Its answer to an API key over its ceiling: the same code, and a message that names the key. */
export const apiKeyLimitedBody = {
  error: { code: 'rate_limited', message: 'Too many requests with this API key, try again later.' },
} as const;

const rateLimitedBodyKey = 'rate-limited';
const apiKeyLimitedBodyKey = 'api-key-limited';

/**
 * The AWS managed rule groups the pay routes pass through, cheapest first. Only the pay routes:
 * merchant bodies are up to 256 KB of free text (descriptions, metadata), where the common rule
 * set's size and cross-site-scripting rules would refuse legitimate calls, and every merchant call
 * already carries a key the authorizer checks (docs/decisions/noisy-neighbours.md).
 */
export const managedRuleGroups = [
  { name: 'AWSManagedRulesAmazonIpReputationList', metricSuffix: 'ip-reputation', countOnly: [] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', metricSuffix: 'known-bad-inputs', countOnly: [] },
  // The 8 KB body limit only counts: a pay body is under 1 KB, and one larger gets the service's
  // own documented 400 or 413, as it does locally, rather than the firewall's 403.
  {
    name: 'AWSManagedRulesCommonRuleSet',
    metricSuffix: 'common-rule-set',
    countOnly: ['SizeRestrictions_BODY'],
  },
] as const;

/**
 * The first path segments of the public routes (`/pay` of the pay page, `/portal` of the merchant
 * portal): no merchant route begins with either, so each names public routes only.
 */
export const publicPathRoots: readonly string[] = [
  ...new Set(routeList.filter(isPublic).map((route) => `/${route.path.split('/')[1]}`)),
];

/**
 * The URI paths of the public routes, which the per-address rule and the managed groups match and
 * the per-key rule leaves out: as WAF sees them on the stage's execute-api URL (`/<stage>/pay…`), and
 * without the stage, as they would look behind a custom domain. A root exactly or below `<root>/`,
 * never `/payments`, which is the merchants' own API.
 */
export function publicPathMatches(stageName: string): { exactly: string[]; startsWith: string[] } {
  const roots = publicPathRoots.flatMap((root) => [`/${stageName}${root}`, root]);
  return { exactly: roots, startsWith: roots.map((root) => `${root}/`) };
}

type ManagedRuleGroup = (typeof managedRuleGroups)[number];

/** What each rule of the web ACL is, for its metric name. */
export type WebAclRule = 'payPerAddress' | 'perApiKey' | ManagedRuleGroup['metricSuffix'];

/** The CloudWatch metric name (`Rule` dimension of `AWS/WAFV2`) of each rule of the web ACL. */
export function ruleMetricNames(webAclName: string): Readonly<Record<WebAclRule, string>> {
  const suffixes: readonly (readonly [WebAclRule, string])[] = [
    ['payPerAddress', 'pay-per-address'],
    ['perApiKey', 'per-api-key'],
    ...managedRuleGroups.map((group) => [group.metricSuffix, group.metricSuffix] as const),
  ];
  return Object.fromEntries(suffixes.map(([rule, suffix]) => [rule, `${webAclName}-${suffix}`])) as Record<
    WebAclRule,
    string
  >;
}

export interface PublicRoutesWebAclProps {
  /** The API stage the web ACL protects. */
  readonly stage: apigateway.Stage;
  /** Its name as a literal: the rule matches on it, and `stage.stageName` is a token. */
  readonly stageName: string;
  /** Physical name of the web ACL; also the prefix of its CloudWatch metric names. */
  readonly name: string;
  /** What one API key may send to the merchant routes in one window. */
  readonly apiKeyCeiling: RequestCeiling;
  /** The log of blocked requests: its retention, key and removal follow the stage's other logs. */
  readonly logRetention: logs.RetentionDays;
  readonly logEncryptionKey: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
}

type Statement = wafv2.CfnWebACL.StatementProperty;
type Rule = wafv2.CfnWebACL.RuleProperty;

/** A request to one of the pay routes, after WAF's URL decoding and path normalization. */
function payRoutesStatement(stageName: string): Statement {
  const { exactly, startsWith } = publicPathMatches(stageName);
  const pathStatement = (searchString: string, positionalConstraint: 'EXACTLY' | 'STARTS_WITH') => ({
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      searchString,
      positionalConstraint,
      // Decoded and normalized first, so `/sandbox//pay` or `%70ay` is counted like `/sandbox/pay`.
      textTransformations: [
        { priority: 0, type: 'URL_DECODE' },
        { priority: 1, type: 'NORMALIZE_PATH' },
      ],
    },
  });
  return {
    orStatement: {
      statements: [
        ...exactly.map((path) => pathStatement(path, 'EXACTLY')),
        ...startsWith.map((path) => pathStatement(path, 'STARTS_WITH')),
      ],
    },
  };
}

/** Blocks with 429, a body of `customResponseBodies` and `Retry-After`: the window's length. */
function tooManyRequests(bodyKey: string, windowSeconds: number): wafv2.CfnWebACL.RuleActionProperty {
  return {
    block: {
      customResponse: {
        responseCode: 429,
        customResponseBodyKey: bodyKey,
        responseHeaders: [{ name: 'Retry-After', value: String(windowSeconds) }],
      },
    },
  };
}

/**
 * Every merchant request counted against the key it carries. The `Authorization` header is the
 * key: the authorizer reads the same header, and WAF runs before it, so a request over the
 * ceiling costs no function at all. Spacing and the scheme's case are folded first, as the
 * authorizer folds them, so `bearer  <key>` counts with `Bearer <key>`. A request without the
 * header is not counted (API Gateway refuses it with 401 before the authorizer runs).
 */
function perApiKeyRule(
  priority: number,
  payRoutes: Statement,
  ceiling: RequestCeiling,
  metricName: string,
): Rule {
  return {
    name: 'MerchantRoutesPerApiKey',
    priority,
    statement: {
      rateBasedStatement: {
        limit: ceiling.requests,
        evaluationWindowSec: ceiling.windowSeconds,
        aggregateKeyType: 'CUSTOM_KEYS',
        customKeys: [
          {
            header: {
              name: 'authorization',
              textTransformations: [
                { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
                { priority: 1, type: 'LOWERCASE' },
              ],
            },
          },
        ],
        scopeDownStatement: { notStatement: { statement: payRoutes } },
      },
    },
    action: tooManyRequests(apiKeyLimitedBodyKey, ceiling.windowSeconds),
    // Samples of merchant requests would hold their API keys.
    visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: false, metricName },
  };
}

/** One AWS managed rule group, evaluated for the pay routes only, with its own actions. */
function managedGroupRule(
  group: ManagedRuleGroup,
  priority: number,
  payRoutes: Statement,
  metricName: string,
): Rule {
  return {
    name: group.name,
    priority,
    // Unpinned: AWS updates the groups' signatures, and the pay bodies are too small and fixed in
    // form for an update to start refusing payers.
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: group.name,
        scopeDownStatement: payRoutes,
        ...(group.countOnly.length === 0
          ? {}
          : { ruleActionOverrides: group.countOnly.map((name) => ({ name, actionToUse: { count: {} } })) }),
      },
    },
    overrideAction: { none: {} },
    // Pay-route requests carry no API key, and samples never hold a body (where the slug travels).
    visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName },
  };
}

/**
 * The web ACL's rules, the rate-based ones first so every request counts, whatever a later rule
 * decides. WAF bills each rule (a managed rule group counts as one) by the month
 * (docs/performance.md#cost-model).
 */
export function webAclRules(
  stageName: string,
  apiKeyCeiling: RequestCeiling,
  metricNames: Readonly<Record<WebAclRule, string>>,
): Rule[] {
  const payRoutes = payRoutesStatement(stageName);
  return [
    {
      name: 'PayRoutesPerAddress',
      priority: 0,
      statement: {
        rateBasedStatement: {
          limit: publicRateLimit.requests,
          evaluationWindowSec: publicRateLimit.windowSeconds,
          aggregateKeyType: 'IP',
          scopeDownStatement: payRoutes,
        },
      },
      action: tooManyRequests(rateLimitedBodyKey, publicRateLimit.windowSeconds),
      // Only pay-route requests are sampled here; they carry no API key (the slug is in the body,
      // which samples never hold).
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        sampledRequestsEnabled: true,
        metricName: metricNames.payPerAddress,
      },
    },
    perApiKeyRule(1, payRoutes, apiKeyCeiling, metricNames.perApiKey),
    ...managedRuleGroups.map((group, index) =>
      managedGroupRule(group, 2 + index, payRoutes, metricNames[group.metricSuffix]),
    ),
  ];
}

/**
 * A regional WAFv2 web ACL on the API stage. It lets everything through except: an address sending
 * more than `publicRateLimit` requests per window to the public pay routes; an API key sending more
 * than `apiKeyCeiling` to the merchant routes (both then get 429 `rate_limited` with `Retry-After`
 * until their rate falls back under the limit); and a pay-route request that an AWS managed rule
 * group blocks, which API Gateway answers 403 in the error shape (its `WAF_FILTERED` response falls
 * back to `DEFAULT_4XX`, lib/constructs/gateway-responses.ts).
 */
export class PublicRoutesWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  readonly association: wafv2.CfnWebACLAssociation;
  readonly blockedRequestsLog: logs.LogGroup;
  /** The `Rule` dimension of each rule's `AWS/WAFV2` metrics; the web ACL's own is its name. */
  readonly metricNames: Readonly<Record<WebAclRule, string>>;

  constructor(scope: Construct, id: string, props: PublicRoutesWebAclProps) {
    super(scope, id);
    this.metricNames = ruleMetricNames(props.name);

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: 'Per-address limit and managed rules on the pay routes, per-key ceiling on the rest',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [rateLimitedBodyKey]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(rateLimitedBody) },
        [apiKeyLimitedBodyKey]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(apiKeyLimitedBody),
        },
      },
      rules: webAclRules(props.stageName, props.apiKeyCeiling, this.metricNames),
      // Requests that reach the default action are mostly merchant calls: their samples would keep
      // the Authorization header, and an API key is never stored anywhere in any form
      // (docs/security.md "A stolen log or table dump").
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        sampledRequestsEnabled: false,
        metricName: props.name,
      },
      // Whatever WAF keeps of a request (logs, samples, the per-key rule's aggregation key in a log
      // entry, a managed rule's matched text) shows REDACTED for the API key and for the body, which
      // on the pay routes holds the pay-link slug and card details.
      dataProtectionConfig: {
        dataProtections: [
          { field: { fieldType: 'SINGLE_HEADER', fieldKeys: ['authorization'] }, action: 'SUBSTITUTION' },
          { field: { fieldType: 'BODY' }, action: 'SUBSTITUTION' },
        ],
      },
    });

    // WAF writes only to log groups named aws-waf-logs-…. Only blocked requests are kept (the
    // rate-limited addresses and keys an operator looks into), and the Authorization header is
    // redacted before WAF writes anything: an API key is never stored anywhere in any form
    // (docs/security.md "A stolen log or table dump").
    this.blockedRequestsLog = new logs.LogGroup(this, 'BlockedRequests', {
      logGroupName: `aws-waf-logs-${props.name}`,
      retention: props.logRetention,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: props.removalPolicy,
    });
    new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [this.blockedRequestsLog.logGroupArn],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: [{ ActionCondition: { Action: 'BLOCK' } }],
          },
        ],
      },
    });

    this.association = new wafv2.CfnWebACLAssociation(this, 'Association', {
      // arn:<partition>:apigateway:<region>::/restapis/<restApiId>/stages/<stageName>; the stage name
      // is a Ref of the stage, so the association waits for it.
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
