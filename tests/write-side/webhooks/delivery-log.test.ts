// The delivery log's pure rules and codec: a delivery's id, the events recorded, a worker's flush
// split by delivery, and a delivery folded from its log (statuses, next attempt, the bounded list).
import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../../write-side/kernel/errors.js';
import { decodeDeliveryEvent, deliveryStream, encodeDeliveryEvent } from '../../../write-side/webhooks/codec.js';
import { attemptsRecorded, deliveryIdOf, deliveryOfPart, deliveryParts, evolveDelivery, MAX_ATTEMPTS_KEPT, retryRequested, type AttemptReport } from '../../../write-side/webhooks/delivery-log.js';
import type { Delivery, WebhookDeliveryEvent } from '../../../write-side/webhooks/types.js';

const SUB = '0b5e7c64-93c1-4c8e-a0c4-5d1f0a2b3c4d';
const attempt = (eventId: string, extra: Partial<AttemptReport> = {}): AttemptReport => ({
  eventId, eventPosition: `pos-${eventId}`, type: 'order.paid', resource: `order-${eventId}`, at: '2027-01-02T10:00:00.000Z',
  statusCode: 500, durationMs: 120, outcome: 'retrying', nextAttemptAt: '2027-01-02T10:00:05.000Z', ...extra,
});
const fold = (events: readonly WebhookDeliveryEvent[], id: string): Delivery | null =>
  events.flatMap(deliveryParts).filter((part) => deliveryOfPart(part) === id).reduce<Delivery | null>(evolveDelivery, null);

describe('a delivery id', () => {
  it('is a UUID v5 of the subscription and the event: the same wherever computed, another for another subscription or event', () => {
    const id = deliveryIdOf(SUB, 'evt-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deliveryIdOf(SUB, 'evt-1')).toBe(id);
    expect(deliveryIdOf(SUB, 'evt-2')).not.toBe(id);
    expect(deliveryIdOf('another', 'evt-1')).not.toBe(id);
  });
});

describe('recording attempts', () => {
  it('records each attempt with its delivery id, computed again whatever the worker gave', () => {
    const event = attemptsRecorded(SUB, [attempt('evt-1'), { ...attempt('evt-2'), deliveryId: 'wrong' }]);
    expect(event.type).toBe('WebhookAttemptsRecorded');
    expect(event.data.attempts.map((a) => a.deliveryId)).toEqual([deliveryIdOf(SUB, 'evt-1'), deliveryIdOf(SUB, 'evt-2')]);
  });

  it('refuses an empty list', () => {
    expect(() => attemptsRecorded(SUB, [])).toThrow(ValidationFailed);
  });

  it('round-trips through the codec, and refuses a schema version it cannot read', () => {
    const event = attemptsRecorded(SUB, [attempt('evt-1')]);
    const stored = encodeDeliveryEvent(event, { correlationId: 'c', causationId: null, principal: 'webhook-delivery' });
    expect(stored.metadata.schemaVersion).toBe(1);
    expect(decodeDeliveryEvent(stored)).toEqual(event);
    expect(() => decodeDeliveryEvent({ ...stored, metadata: { ...stored.metadata, schemaVersion: 2 } })).toThrow(TypeError);
    expect(() => decodeDeliveryEvent({ ...stored, type: 'WebhookSubscriptionCreated' })).toThrow(TypeError);
    expect(deliveryStream(SUB)).toBe(`webhook-deliveries-${SUB}`);
  });
});

describe('a delivery folded from its log', () => {
  it('splits a flush by delivery, each part with its own attempts in order', () => {
    const event = attemptsRecorded(SUB, [attempt('evt-1'), attempt('evt-2'), attempt('evt-1', { at: '2027-01-02T10:00:05.000Z', statusCode: 200, outcome: 'succeeded', nextAttemptAt: null })]);
    const parts = deliveryParts(event);
    expect(parts.map(deliveryOfPart)).toEqual([deliveryIdOf(SUB, 'evt-1'), deliveryIdOf(SUB, 'evt-2')]);
    expect(parts[0]!.type === 'WebhookAttemptsRecorded' && parts[0]!.data.attempts.map((a) => a.outcome)).toEqual(['retrying', 'succeeded']);
  });

  it('is pending while retrying, with the next attempt due; succeeded or failed after the last outcome', () => {
    const id = deliveryIdOf(SUB, 'evt-1');
    const retrying = attemptsRecorded(SUB, [attempt('evt-1', { error: 'timed out after 10 s', statusCode: undefined })]);
    expect(fold([retrying], id)).toEqual({
      id, subscriptionId: SUB, eventId: 'evt-1', eventPosition: 'pos-evt-1', type: 'order.paid', resource: 'order-evt-1', jobId: null, status: 'pending',
      attempts: [{ at: '2027-01-02T10:00:00.000Z', error: 'timed out after 10 s', durationMs: 120 }], attemptCount: 1,
      nextAttemptAt: '2027-01-02T10:00:05.000Z', createdAt: '2027-01-02T10:00:00.000Z', updatedAt: '2027-01-02T10:00:00.000Z',
    });
    const succeeded = attemptsRecorded(SUB, [attempt('evt-1', { at: '2027-01-02T10:00:05.000Z', statusCode: 204, outcome: 'succeeded', nextAttemptAt: null })]);
    expect(fold([retrying, succeeded], id)).toMatchObject({ status: 'succeeded', nextAttemptAt: null, attemptCount: 2, updatedAt: '2027-01-02T10:00:05.000Z', createdAt: '2027-01-02T10:00:00.000Z' });
    const failed = attemptsRecorded(SUB, [attempt('evt-1', { at: '2027-01-05T10:00:00.000Z', outcome: 'failed', nextAttemptAt: null })]);
    expect(fold([retrying, failed], id)).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  it('is pending again, due at once, after a retry request, whatever it was', () => {
    const id = deliveryIdOf(SUB, 'evt-1');
    const failed = attemptsRecorded(SUB, [attempt('evt-1', { outcome: 'failed', nextAttemptAt: null })]);
    const delivery = fold([failed], id)!;
    const retry = retryRequested(delivery, '2027-01-06T08:00:00.000Z');
    expect(retry.data).toEqual({ subscriptionId: SUB, deliveryId: id, eventId: 'evt-1', eventPosition: 'pos-evt-1', type: 'order.paid', resource: 'order-evt-1', requestedAt: '2027-01-06T08:00:00.000Z' });
    expect(fold([failed, retry], id)).toMatchObject({ status: 'pending', nextAttemptAt: '2027-01-06T08:00:00.000Z', updatedAt: '2027-01-06T08:00:00.000Z', attemptCount: 1 });
  });

  it(`keeps the latest ${MAX_ATTEMPTS_KEPT} attempts and counts them all`, () => {
    const id = deliveryIdOf(SUB, 'evt-1');
    const flushes = Array.from({ length: MAX_ATTEMPTS_KEPT + 7 }, (_, i) => attemptsRecorded(SUB, [attempt('evt-1', { at: new Date(Date.UTC(2027, 0, 2, 10, i)).toISOString() })]));
    const delivery = fold(flushes, id)!;
    expect(delivery.attempts).toHaveLength(MAX_ATTEMPTS_KEPT);
    expect(delivery.attemptCount).toBe(MAX_ATTEMPTS_KEPT + 7);
    expect(delivery.attempts[0]!.at).toBe(new Date(Date.UTC(2027, 0, 2, 10, 7)).toISOString());
    expect(delivery.createdAt).toBe('2027-01-02T10:00:00.000Z');
  });
});
