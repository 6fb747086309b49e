// The webhook subscriptions' use cases: create, change, rotate the secret of, disable and delete
// a subscription, read one as it is now, ask for a replay of a range of the log (a job); and, for
// the delivery worker, the secrets to sign with at an instant. Subscriptions belong to no single customer: a customer token is refused whatever
// its scopes. The secret is made here (from the injected random source) and handed back by the
// creation and the rotation alone; every other answer is the subscription without it.
import { randomBytes } from 'node:crypto';
import { isStaff, type Viewer } from '../kernel/access.js';
import { CommandHandler, type CommandContext, type CommandResult } from '../kernel/command-handler.js';
import { Forbidden, ValidationFailed } from '../kernel/errors.js';
import type { EventStore, Position, RecordedEvent } from '../kernel/event-store.js';
import { keyId, type Idempotent } from '../kernel/idempotency.js';
import { isLogPosition, parsePosition } from '../kernel/position.js';
import type { JobResultOf, JobService } from '../jobs/service.js';
import type { ReplayJob } from '../jobs/types.js';
import type { WriteContext } from '../kernel/write-context.js';
import { decodeWebhookEvent, encodeWebhookEvent, subscriptionStream } from './codec.js';
import { detailsOf, subscriptionDecider } from './decider.js';
import { SECRET_BYTES, secretOf, signingSecretsAt, SubscriptionNotFound, WebhookUrlRefused, type UrlCheck } from './rules.js';
import { isLive, type EventSelection, type Subscription, type SubscriptionDetails, type SubscriptionPatch, type WebhookCommand, type WebhookEvent } from './types.js';

export type SubscriptionResult = CommandResult<Subscription, WebhookEvent>;

/** A subscription as a read or a write leaves it: what it shows, its stream's revision and the log position of its last event. */
export interface SubscriptionSnapshot {
  readonly subscription: SubscriptionDetails;
  readonly revision: number;
  readonly position: Position;
}

/** What the creation and a rotation answer: the subscription and its (new) secret, shown this once. */
export interface SubscriptionWithSecret extends SubscriptionSnapshot {
  readonly secret: string;
  readonly replayed: boolean;
}

/** What a client asks for at the creation; the API version defaults to the current one. */
export interface NewSubscription {
  readonly url: string;
  readonly events: EventSelection;
  readonly apiVersion?: string;
  readonly description?: string | null;
}

export interface WebhookServiceOptions {
  /** Whether a URL may receive messages (the sender's checkWebhookUrl); asked on every creation and every change of the URL. */
  readonly checkUrl: UrlCheck;
  /** The API versions a subscription's messages may be represented under (api/versions.ts), and the one it gets unless it names one. */
  readonly apiVersions: { readonly current: string; readonly supported: readonly string[] };
  readonly clock?: () => Date;
  /** `n` random bytes: the source of the secrets. */
  readonly random?: (n: number) => Uint8Array;
  /** Where a replay's job is recorded (the jobs area's use case); without it, replays are refused. */
  readonly jobs?: Pick<JobService, 'requestReplay'>;
}

/** A replay's range as a client asks for it: log positions or RFC 3339 instants, both inclusive; `to` defaults to the log's head. */
export interface ReplayRange {
  readonly from: string;
  readonly to?: string;
}

export class WebhookService {
  private readonly handler: CommandHandler<Subscription, WebhookCommand, WebhookEvent>;
  private readonly checkUrl: UrlCheck;
  private readonly apiVersions: WebhookServiceOptions['apiVersions'];
  private readonly clock: () => Date;
  private readonly random: (n: number) => Uint8Array;
  private readonly jobs: Pick<JobService, 'requestReplay'> | null;

  constructor(
    private readonly store: EventStore,
    options: WebhookServiceOptions,
  ) {
    this.handler = new CommandHandler(store, subscriptionDecider, { encode: encodeWebhookEvent, decode: decodeWebhookEvent });
    this.checkUrl = options.checkUrl;
    this.apiVersions = options.apiVersions;
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random ?? ((n) => randomBytes(n));
    this.jobs = options.jobs ?? null;
  }

  /**
   * A job that sends again every event of the range the subscription selects (the delivery worker
   * runs it). A position must be one the log has reached; `to` defaults to the log's head now, so
   * the range is fixed when it is asked for. The job's id is the key's, so a retried request is
   * answered with the first one's job. An unknown or deleted subscription is 404, and no job is made.
   */
  async requestReplay(viewer: Viewer, subscriptionId: string, range: ReplayRange, context: WriteContext & Idempotent): Promise<{ job: ReplayJob; replayed: boolean; position: Position | null }> {
    refuseCustomers(viewer);
    if (!this.jobs) throw new Error('replays need the jobs use case (WebhookServiceOptions.jobs)');
    const head = await this.store.headPosition();
    const errors: { pointer: string; message: string }[] = [];
    const from = replayBound(range.from, '/from', head, errors);
    const to = range.to === undefined ? head : replayBound(range.to, '/to', head, errors);
    if (from !== null && to !== null && boundKind(from) === boundKind(to) && from > to) errors.push({ pointer: '/to', message: 'must not come before from' });
    if (errors.length > 0) throw new ValidationFailed(errors);
    if (!(await this.get(viewer, subscriptionId))) throw new SubscriptionNotFound(subscriptionId);
    if (from === null || to === null) throw new ValidationFailed([{ pointer: '/from', message: 'the log is empty: there is nothing to replay' }]);
    const result: JobResultOf = await this.jobs.requestReplay(viewer, { subscriptionId, from, to }, context);
    if (result.state.status === 'absent' || result.state.type !== 'webhook-replay') throw new Error('the replay request recorded no replay');
    return { job: result.state, replayed: result.replayed, position: result.position };
  }

  /**
   * The id is the key's, so a retried creation lands on the same stream and is answered with the
   * first one's subscription and secret (its events hold it), and nothing new is made.
   */
  async create(viewer: Viewer, input: NewSubscription, context: WriteContext & Idempotent): Promise<SubscriptionWithSecret> {
    refuseCustomers(viewer);
    const apiVersion = input.apiVersion ?? this.apiVersions.current;
    if (!this.apiVersions.supported.includes(apiVersion)) {
      throw new ValidationFailed([{ pointer: '/apiVersion', message: `must be one of ${this.apiVersions.supported.join(', ')}` }]);
    }
    this.refuseUrl(input.url);
    const subscriptionId = keyId(viewer.sub, context.idempotency.key);
    const secret = secretOf(this.random(SECRET_BYTES));
    const settings = { url: input.url, events: input.events, apiVersion, description: input.description ?? null };
    const result = await this.run(viewer, subscriptionId, { type: 'CreateSubscription', data: { subscriptionId, ...settings, secret }, metadata: this.meta(viewer) }, context);
    return withSecret(result);
  }

  /** The merge patch applied to the subscription as it is; a revision conflict decides again, unless the caller pinned one (If-Match). */
  async change(viewer: Viewer, subscriptionId: string, patch: SubscriptionPatch, context: WriteContext & { expectedRevision?: number }): Promise<SubscriptionSnapshot> {
    refuseCustomers(viewer);
    if (patch.url !== undefined) this.refuseUrl(patch.url);
    return snapshotOf(await this.run(viewer, subscriptionId, { type: 'ChangeSubscription', data: { subscriptionId, patch }, metadata: this.meta(viewer) }, context));
  }

  /** A new secret; the one it replaces still signs for 24 h (rules.ts). */
  async rotateSecret(viewer: Viewer, subscriptionId: string, context: WriteContext & { expectedRevision?: number }): Promise<SubscriptionWithSecret> {
    refuseCustomers(viewer);
    const secret = secretOf(this.random(SECRET_BYTES));
    return withSecret(await this.run(viewer, subscriptionId, { type: 'RotateSecret', data: { subscriptionId, secret }, metadata: this.meta(viewer) }, context));
  }

  /** For the delivery worker: a subscription whose deliveries all failed for 3 days is disabled, and says why. Disabling it again changes nothing. */
  async disable(viewer: Viewer, subscriptionId: string, reason: string, context: WriteContext): Promise<SubscriptionSnapshot> {
    refuseCustomers(viewer);
    return snapshotOf(await this.run(viewer, subscriptionId, { type: 'DisableSubscription', data: { subscriptionId, reason }, metadata: this.meta(viewer) }, context));
  }

  /** Afterwards the subscription reads as unknown; deleting it again changes nothing. */
  async delete(viewer: Viewer, subscriptionId: string, context: WriteContext & { expectedRevision?: number }): Promise<SubscriptionResult> {
    refuseCustomers(viewer);
    return await this.run(viewer, subscriptionId, { type: 'DeleteSubscription', data: { subscriptionId }, metadata: this.meta(viewer) }, context);
  }

  /** The subscription as it is now, without its secrets; null when unknown or deleted. */
  async get(viewer: Viewer, subscriptionId: string): Promise<SubscriptionSnapshot | null> {
    refuseCustomers(viewer);
    const events = await this.store.readStream(subscriptionStream(subscriptionId));
    const subscription = fold(events);
    const last = events.at(-1);
    if (!isLive(subscription) || !last) return null;
    return { subscription: detailsOf(subscription), revision: last.revision, position: last.position };
  }

  /**
   * For the delivery worker: the secrets a message sent at `now` is signed with, the current one
   * first, then the one a rotation replaced while its 24 h run. A subscription unknown or deleted
   * is SubscriptionNotFound; a paused or disabled one still has its secrets.
   */
  async signingSecrets(subscriptionId: string, now: Date): Promise<string[]> {
    const subscription = fold(await this.store.readStream(subscriptionStream(subscriptionId)));
    if (!isLive(subscription)) throw new SubscriptionNotFound(subscriptionId);
    return signingSecretsAt(subscription.secrets, now);
  }

  private refuseUrl(url: string): void {
    const verdict = this.checkUrl(url);
    if (!verdict.ok) throw new WebhookUrlRefused(verdict.reason);
  }

  private run(viewer: Viewer, subscriptionId: string, command: WebhookCommand, context: WriteContext & Partial<Idempotent> & { expectedRevision?: number }): Promise<SubscriptionResult> {
    const handlerContext: CommandContext = {
      principal: viewer.sub,
      correlationId: context.correlationId,
      causationId: context.causationId ?? null,
      ...(context.expectedRevision === undefined ? {} : { expectedRevision: context.expectedRevision }),
      ...(context.idempotency ? { idempotency: context.idempotency } : {}),
    };
    return this.handler.handle(subscriptionStream(subscriptionId), command, handlerContext);
  }

  private meta(viewer: Viewer) {
    return { now: this.clock().toISOString(), principal: viewer.sub };
  }
}

/**
 * A replay bound as the job records it: a log position as it is, an instant as UTC; null (with an
 * error) when it is neither, or a position the log has not reached.
 */
function replayBound(text: string, pointer: string, head: Position | null, errors: { pointer: string; message: string }[]): string | null {
  const position = parsePosition(text);
  if (position !== null) {
    if (!isLogPosition(position) || head === null || position > head) {
      errors.push({ pointer, message: 'is not a position the log has reached' });
      return null;
    }
    return position;
  }
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    errors.push({ pointer, message: 'must be a log position (32 hexadecimal digits) or an RFC 3339 date-time' });
    return null;
  }
  return new Date(ms).toISOString();
}

const boundKind = (bound: string): 'position' | 'instant' => (parsePosition(bound) !== null ? 'position' : 'instant');

function refuseCustomers(viewer: Viewer): void {
  if (!isStaff(viewer)) throw new Forbidden('Webhook subscriptions belong to no single customer: a customer token cannot manage them.');
}

function fold(events: readonly RecordedEvent[]): Subscription {
  return events.reduce((state, recorded) => subscriptionDecider.evolve(state, decodeWebhookEvent(recorded)), subscriptionDecider.initialState());
}

function snapshotOf(result: SubscriptionResult): SubscriptionSnapshot {
  const { state, revision, position } = result;
  if (!isLive(state) || revision === null || position === null) throw new Error('the command left no subscription');
  return { subscription: detailsOf(state), revision, position };
}

/** The subscription and the secret its command recorded (for a replay, the first run's). */
function withSecret(result: SubscriptionResult): SubscriptionWithSecret {
  const recorded = result.events.at(-1);
  if (recorded?.type !== 'WebhookSubscriptionCreated' && recorded?.type !== 'WebhookSecretRotated') throw new Error('the command recorded no secret');
  return { ...snapshotOf(result), secret: recorded.data.secret, replayed: result.replayed };
}
