import { DEFAULT_SNS_CERT_HOSTS, SnsSignatureVerifier, parseCertHostPatterns, snsCanonicalString } from './sns-signature';

describe('SNS_SIGNING_CERT_HOSTS', () => {
  const verifier = new SnsSignatureVerifier({ hosts: parseCertHostPatterns(DEFAULT_SNS_CERT_HOSTS), fetchPem: () => Promise.reject(new Error('not fetched')) });
  const signed = (url: string) => ({
    Type: 'Notification',
    Message: 'm',
    MessageId: 'i',
    Timestamp: 't',
    TopicArn: 'a',
    SignatureVersion: '2',
    Signature: 'c2ln',
    SigningCertURL: url,
  });
  const reason = async (url: string) => ((await verifier.verify(signed(url)).catch((e: Error) => e)) as Error).message;

  it('the default allows https certificates of SNS in any region and nothing that only looks like it', async () => {
    expect(await reason('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem')).toContain('could not be loaded');
    expect(await reason('https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem')).toContain('could not be loaded');
    for (const url of [
      'http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem',
      'https://sns.eu-west-1.amazonaws.com.evil.example/x.pem',
      'https://evil.sns.eu-west-1.amazonaws.com/x.pem',
      'https://sns.a.b.amazonaws.com/x.pem',
      'https://sns.eu-west-1.amazonaws.com:8443/x.pem',
      'https://user:pw@sns.eu-west-1.amazonaws.com/x.pem',
      'https://sns.eu-west-1.amazonaws.com/x.txt',
      'not a url',
    ])
      expect([url, await reason(url)]).toEqual([url, expect.stringContaining('SigningCertURL')]);
  });

  it('refuses http for anything but a loopback host, and bad patterns', () => {
    expect(parseCertHostPatterns('http://127.0.0.1:8080')[0]).toMatchObject({ protocol: 'http:', port: '8080' });
    expect(() => parseCertHostPatterns('http://sns.example.com')).toThrow('loopback');
    expect(() => parseCertHostPatterns(' , ')).toThrow('at least one');
    expect(() => parseCertHostPatterns('sns.*.amazon aws.com')).toThrow('host pattern');
  });

  it('signs Subject only when present, and the subscription fields for a confirmation', () => {
    expect(snsCanonicalString({ Type: 'Notification', Message: 'm', MessageId: 'i', Timestamp: 't', TopicArn: 'a' })).toBe(
      'Message\nm\nMessageId\ni\nTimestamp\nt\nTopicArn\na\nType\nNotification\n',
    );
    expect(
      snsCanonicalString({ Type: 'SubscriptionConfirmation', Message: 'm', MessageId: 'i', SubscribeURL: 'u', Timestamp: 't', Token: 'k', TopicArn: 'a' }),
    ).toBe('Message\nm\nMessageId\ni\nSubscribeURL\nu\nTimestamp\nt\nToken\nk\nTopicArn\na\nType\nSubscriptionConfirmation\n');
  });
});
