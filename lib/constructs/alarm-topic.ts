import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';
import type { AlarmSubscribers } from '../stage-config';
import type { DataKey } from './data-key';

export interface AlarmTopicProps {
  readonly topicName: string;
  readonly dataKey: DataKey;
  /**
   * From the stage file, so every deploy keeps them: e-mail addresses and HTTPS endpoints (a
   * pager's integration URL). Each must confirm the subscription SNS sends it.
   */
  readonly subscribers: AlarmSubscribers;
}

/**
 * The stage's one SNS topic for alarms, encrypted with the data key and TLS-only. Every alarm of
 * the stack notifies it when it goes off and when it recovers (`notifyOnEveryAlarm`), so a pager or
 * an inbox named once in the stage file hears of everything.
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
    for (const email of props.subscribers.email) {
      this.topic.addSubscription(new subscriptions.EmailSubscription(email));
    }
    for (const url of props.subscribers.https) {
      this.topic.addSubscription(
        new subscriptions.UrlSubscription(url, { protocol: sns.SubscriptionProtocol.HTTPS }),
      );
    }
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
