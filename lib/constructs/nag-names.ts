/**
 * A resolved value as cdk-nag names it in a finding id, such as `AwsSolutions-IAM5[Resource::…]`:
 * `<AWS::Region>` for a reference, `<Id.Arn>` for an attribute, the parts of a join joined.
 */
export function asNagNames(value: unknown): string {
  if (typeof value === 'string') return value;
  const intrinsic = value as {
    Ref?: string;
    'Fn::GetAtt'?: [string, string];
    'Fn::Join'?: [string, unknown[]];
  };
  if (intrinsic.Ref !== undefined) return `<${intrinsic.Ref}>`;
  if (intrinsic['Fn::GetAtt'] !== undefined) return `<${intrinsic['Fn::GetAtt'].join('.')}>`;
  if (intrinsic['Fn::Join'] !== undefined) {
    const [separator, parts] = intrinsic['Fn::Join'];
    return parts.map(asNagNames).join(separator);
  }
  return JSON.stringify(value);
}
