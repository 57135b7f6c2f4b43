import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';
import type { DataKey } from './data-key';

/** The CDK context key of the addresses the alarms go to (`cdk deploy -c alarmEmail=…`). */
export const alarmEmailContextKey = 'alarmEmail';

/** Deliberately plain: one `@`, a dot in the domain, no spaces or commas. SNS confirms the rest. */
const emailPattern = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/**
 * The alarm addresses from CDK context: absent, one address, several separated by commas (the CDK
 * CLI keeps only the last `-c alarmEmail=…` of a command line, so several go in one value), or a
 * JSON list in cdk.json. Anything else is an error naming the value and the accepted forms.
 */
export function parseAlarmEmails(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const parts = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(',').map((part) => part.trim())
      : [value];
  const emails: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string' || !emailPattern.test(part)) {
      throw new Error(
        `Context "${alarmEmailContextKey}" must be e-mail addresses, separated by commas (got ${JSON.stringify(part)}); ` +
          `pass -c ${alarmEmailContextKey}=oncall@example.com,team@example.com`,
      );
    }
    if (!emails.includes(part)) emails.push(part);
  }
  return emails;
}

export interface AlarmTopicProps {
  readonly topicName: string;
  readonly dataKey: DataKey;
  /** Addresses subscribed by e-mail; each must confirm the subscription SNS sends it. */
  readonly emails: readonly string[];
}

/**
 * The stage's one SNS topic for alarms, encrypted with the data key and TLS-only. Every alarm of
 * the stack notifies it when it goes off and when it recovers (`notifyOnEveryAlarm`), so an
 * operator can subscribe a pager, a chat hook or e-mail once and hear of everything.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', {
      topicName: props.topicName,
      displayName: props.topicName,
      masterKey: props.dataKey.key,
      enforceSSL: true,
    });
    for (const email of props.emails) this.topic.addSubscription(new subscriptions.EmailSubscription(email));
  }

  /** Adds this topic as the ALARM and OK action of every alarm under `scope`; returns those alarms. */
  notifyOnEveryAlarm(scope: IConstruct): cloudwatch.Alarm[] {
    const action = new actions.SnsAction(this.topic);
    const alarms = scope.node.findAll().filter((node) => node instanceof cloudwatch.Alarm);
    for (const alarm of alarms) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
    return alarms;
  }
}
