// An event store that seals personal data on the way in and opens it on the way out, in front
// of the real one: the event log never holds personal data in clear, and the write side (the
// command handler, single reads, the history) reads it opened, or erased once its key was
// destroyed. The projections read the real store, so that the read models keep it sealed.
import { LRUCache } from 'lru-cache';
import type {
  AppendOptions, AppendResult, EventStore, EventSubscription, ExpectedRevision, JsonObject, JsonValue, NewEvent, ReadAllOptions, ReadStreamOptions,
  RecordedEvent, SubscribeOptions,
} from '../kernel/event-store.js';
import type { PersonalData } from './personal-data.js';
import { placeOf, type PersonalDataRule } from './rules.js';

export class SealingEventStore implements EventStore {
  /** A stream's subject never changes once its first event is written. */
  private readonly subjects = new LRUCache<string, string>({ max: 100_000 });
  readonly changeStamp?: () => Promise<number>;

  constructor(
    private readonly inner: EventStore,
    private readonly personal: PersonalData,
    private readonly rules: readonly PersonalDataRule[],
  ) {
    if (inner.changeStamp) this.changeStamp = () => inner.changeStamp!();
  }

  /** `options` go on to the store as they are: it settles their ticket (and the caller does when this fails first). */
  async appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult> {
    const rule = this.ruleOf(stream);
    if (!rule || !events.some((event) => rule.fields[event.type])) return this.inner.appendToStream(stream, events, expected, options);
    const subject = await this.subjectOf(stream, rule, expected === 'no_stream' ? events[0] : undefined);
    if (subject === null) throw new TypeError(`${stream} holds personal data of nobody known`);
    const seal = await this.personal.sealer(subject);
    const sealed = events.map((event) => {
      const fields = rule.fields[event.type];
      if (!fields) return event;
      const data: Record<string, JsonValue> = { ...event.data };
      for (const { name } of fields) if (data[name] !== undefined) data[name] = seal(placeOf(stream, name), data[name]);
      return { ...event, data };
    });
    return this.inner.appendToStream(stream, sealed, expected, options);
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.open(await this.inner.readStream(stream, options));
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    const last = await this.inner.readLastEvent(stream);
    return last && (await this.open([last]))[0]!;
  }

  setMaxCount(stream: string, maxCount: number): Promise<void> {
    return this.inner.setMaxCount(stream, maxCount);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.open(await this.inner.readAll(options));
  }

  subscribeToAll(options?: SubscribeOptions): EventSubscription {
    const subscription = this.inner.subscribeToAll(options);
    const open = (recorded: RecordedEvent) => this.open([recorded]).then(([opened]) => opened!);
    return {
      close: () => subscription.close(),
      async *[Symbol.asyncIterator]() {
        for await (const recorded of subscription) yield await open(recorded);
      },
    };
  }

  headPosition() {
    return this.inner.headPosition();
  }

  endPosition() {
    return this.inner.endPosition ? this.inner.endPosition() : this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private ruleOf(stream: string): PersonalDataRule | undefined {
    return this.rules.find((rule) => stream.startsWith(rule.streamPrefix));
  }

  private async subjectOf(stream: string, rule: PersonalDataRule, first: NewEvent | undefined): Promise<string | null> {
    const cached = this.subjects.get(stream);
    if (cached !== undefined) return cached;
    const subject = await rule.subject(stream, async () => first ?? (await this.inner.readStream(stream, { toRevision: 0 }))[0]);
    if (subject !== null) this.subjects.set(stream, subject);
    return subject;
  }

  /** The events with their personal members opened (or erased); the others as they are. */
  private async open(recorded: RecordedEvent[]): Promise<RecordedEvent[]> {
    const items: { index: number; name: string; value: unknown; place: string; erased: JsonValue }[] = [];
    recorded.forEach((event, index) => {
      const fields = this.ruleOf(event.streamName)?.fields[event.type];
      for (const { name, erased } of fields ?? []) {
        if (event.data[name] !== undefined) items.push({ index, name, value: event.data[name], place: placeOf(event.streamName, name), erased });
      }
    });
    if (items.length === 0) return recorded;
    const opened = await this.personal.open(items);
    const result = [...recorded];
    items.forEach((item, i) => {
      const event = result[item.index]!;
      result[item.index] = { ...event, data: { ...event.data, [item.name]: opened[i] as JsonValue } as JsonObject };
    });
    return result;
  }
}
