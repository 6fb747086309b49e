// replaced by the sender's checkWebhookUrl at merge
// A stand-in for the webhook URL check, so that the subscriptions can be wired before the sender
// lands: it refuses a URL that does not parse, and one that is not https unless its host is in
// `allowedHosts` (WEBHOOK_ALLOWED_HOSTS). It does not look at addresses (loopback, private, what a
// name resolves to) nor at credentials: the real check does.
import type { UrlCheck } from '../../write-side/webhooks/rules.js';

export function placeholderUrlCheck(allowedHosts: readonly string[]): UrlCheck {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, reason: 'it is not a URL' };
    }
    if (parsed.protocol === 'https:') return { ok: true };
    if (parsed.protocol === 'http:' && allowed.has(parsed.hostname)) return { ok: true };
    return { ok: false, reason: `it must use https (http only for a host WEBHOOK_ALLOWED_HOSTS lists), not ${parsed.protocol.replace(/:$/, '')}` };
  };
}
