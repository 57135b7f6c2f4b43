import type { RemovalPolicy } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { publicRateLimit } from './public-rate-limit';

/** The web ACL's answer to an address over the limit, in the API's error shape (DESIGN §3). */
export const rateLimitedBody = {
  error: { code: 'rate_limited', message: 'Too many requests, try again later.' },
} as const;

const rateLimitedBodyKey = 'rate-limited';

/**
 * The URI paths the rate-based rule counts: the pay routes as WAF sees them on the stage's
 * execute-api URL (`/<stage>/pay…`), and without the stage, as they would look behind a custom
 * domain. `/pay` exactly or below `/pay/`, never `/payments`, which is the merchants' own API.
 */
export function payPathMatches(stageName: string): { exactly: string[]; startsWith: string[] } {
  const roots = [`/${stageName}/pay`, '/pay'];
  return { exactly: roots, startsWith: roots.map((root) => `${root}/`) };
}

export interface PublicRoutesWebAclProps {
  /** The API stage the web ACL protects. */
  readonly stage: apigateway.Stage;
  /** Its name as a literal: the rule matches on it, and `stage.stageName` is a token. */
  readonly stageName: string;
  /** Physical name of the web ACL; also the prefix of its CloudWatch metric names. */
  readonly name: string;
  /** The log of blocked requests: its retention, key and removal follow the stage's other logs. */
  readonly logRetention: logs.RetentionDays;
  readonly logEncryptionKey: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * A regional WAFv2 web ACL on the API stage that lets everything through except an address
 * sending more than `publicRateLimit` requests per window to the public pay routes, which then
 * gets 429 `rate_limited` until its rate falls back under the limit. Merchant routes stay behind
 * the authorizer and the stage throttle only.
 */
export class PublicRoutesWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  readonly association: wafv2.CfnWebACLAssociation;
  readonly blockedRequestsLog: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PublicRoutesWebAclProps) {
    super(scope, id);
    const { exactly, startsWith } = payPathMatches(props.stageName);
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

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: 'Per-address rate limit of the public pay routes',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [rateLimitedBodyKey]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(rateLimitedBody) },
      },
      rules: [
        {
          name: 'PayRoutesPerAddress',
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit: publicRateLimit.requests,
              evaluationWindowSec: publicRateLimit.windowSeconds,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                orStatement: {
                  statements: [
                    ...exactly.map((path) => pathStatement(path, 'EXACTLY')),
                    ...startsWith.map((path) => pathStatement(path, 'STARTS_WITH')),
                  ],
                },
              },
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: rateLimitedBodyKey,
                responseHeaders: [{ name: 'Retry-After', value: String(publicRateLimit.windowSeconds) }],
              },
            },
          },
          // Only pay-route requests are sampled here; they carry no API key (the slug is in the body,
          // which samples never hold).
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            sampledRequestsEnabled: true,
            metricName: `${props.name}-pay-per-address`,
          },
        },
      ],
      // Requests that reach the default action are mostly merchant calls: their samples would keep
      // the Authorization header, and an API key is never stored anywhere in any form (DESIGN §3).
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        sampledRequestsEnabled: false,
        metricName: props.name,
      },
    });

    // WAF writes only to log groups named aws-waf-logs-…. Only blocked requests are kept (the
    // rate-limited addresses an operator looks into), and the Authorization header is redacted
    // before WAF writes anything: an API key is never stored anywhere in any form (DESIGN §3).
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
