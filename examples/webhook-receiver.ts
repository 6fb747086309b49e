// A partner's webhook receiver: verify each message, drop repeats by webhook-id, answer at once.
// WEBHOOK_SECRET=whsec_… PORT=8080 node --import tsx examples/webhook-receiver.ts
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET!);
const seen = new Set<string>(); // in production: a table keyed by webhook-id, kept for the retries' 3 days
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk)).on('end', () => {
    try { webhook.verify(body, req.headers as Record<string, string>); } catch { res.writeHead(400).end(); return; }
    const id = req.headers['webhook-id'] as string;
    if (!seen.has(id)) seen.add(id), console.log(JSON.stringify({ id, type: JSON.parse(body).type })); // queue it; work later
    res.writeHead(204).end(); // a 2xx within 10 s, with a short body (at most 1 KB is read)
  });
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => console.log(`listening on ${JSON.stringify(server.address())}`));
