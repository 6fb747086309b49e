// Webhooks: the JSON Schemas (2020-12) of the subscriptions' and deliveries' bodies, queries and answers, which
// its operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
import { MAX_ATTEMPTS_KEPT } from '../../write-side/webhooks/delivery-log.js';
import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from '../../write-side/webhooks/types.js';
import { ORDER_ID_PATTERN, optionalText } from '../schemas.js';
import { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS } from '../versions.js';

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const URL_SCHEMA = {
  type: 'string',
  format: 'uri',
  minLength: 1,
  maxLength: 2048,
  description: 'where messages are sent: https, and a public host unless WEBHOOK_ALLOWED_HOSTS lists it (then http too); else 422 webhook-url-refused',
} as const;

const EVENTS = {
  description: `the event types to send: one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}; or ["*"] for every one, those added later included`,
  oneOf: [
    { type: 'array', minItems: 1, maxItems: 1, items: { const: ALL_WEBHOOK_EVENTS } },
    { type: 'array', minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true, items: { type: 'string', enum: WEBHOOK_EVENT_TYPES } },
  ],
} as const;

const SECRET = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  description: 'the signing secret, whsec_ and the base64 of 32 random bytes (Standard Webhooks). Shown by the creation and by a rotation only: keep it, no read shows it again.',
} as const;

const subscriptionProperties = {
  id: { type: 'string', pattern: ORDER_ID_PATTERN },
  url: { type: 'string' },
  events: { type: 'array', items: { type: 'string', enum: [ALL_WEBHOOK_EVENTS, ...WEBHOOK_EVENT_TYPES] } },
  apiVersion: { type: 'string', enum: SUPPORTED_API_VERSIONS, description: 'the API version whose representations the messages carry' },
  status: {
    type: 'string',
    enum: ['active', 'paused', 'disabled'],
    description: 'active: messages are sent; paused: none are (an admin set it); disabled: none are, because every delivery failed for 3 days in a row (the service set it; disabledReason says why). An admin sets a disabled subscription active again with PATCH.',
  },
  description: { type: ['string', 'null'] },
  disabledReason: { type: ['string', 'null'], description: 'why the service disabled the subscription; null unless status is disabled' },
  disabledAt: { type: ['string', 'null'], format: 'date-time', description: 'when the service disabled it; null unless status is disabled' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  revision: { type: 'integer', description: 'the subscription stream revision; ETag is "<revision>"' },
} as const;
const SUBSCRIPTION_MEMBERS = Object.keys(subscriptionProperties);

export const webhookSchemas = {
  NewWebhookSubscription: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'events'],
    properties: {
      url: URL_SCHEMA,
      events: EVENTS,
      apiVersion: { type: 'string', enum: SUPPORTED_API_VERSIONS, default: CURRENT_API_VERSION, description: `the API version of the messages' representations; ${CURRENT_API_VERSION} when left out` },
      description: { ...optionalText(500), description: 'for the admins; null (or left out) for none' },
    },
  },
  WebhookSubscriptionPatch: {
    description:
      'JSON Merge Patch (RFC 7396) of a subscription: members left out stay; description null removes it. status may be set to active or paused only: disabled is the service\'s to set, and setting a disabled subscription active (or paused) again is how an admin re-enables it.',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      url: URL_SCHEMA,
      events: EVENTS,
      status: { type: 'string', enum: ['active', 'paused'] },
      description: optionalText(500),
    },
  },
  WebhookSubscription: {
    description: 'A webhook subscription. Its secret is never part of it: only the creation and a rotation show one.',
    type: 'object',
    additionalProperties: false,
    required: SUBSCRIPTION_MEMBERS,
    properties: subscriptionProperties,
  },
  WebhookSubscriptionWithSecret: {
    description: 'A webhook subscription and its signing secret, as the creation and a rotation answer it (and nothing else ever).',
    type: 'object',
    additionalProperties: false,
    required: [...SUBSCRIPTION_MEMBERS, 'secret'],
    properties: { ...subscriptionProperties, secret: SECRET },
  },
  WebhookDelivery: {
    description:
      'One event sent to one subscription, and what its attempts came to. Its id is a UUID derived from the subscription and the event, the same for every attempt. ' +
      `attempts holds the latest ${MAX_ATTEMPTS_KEPT} attempts, oldest first (so that a delivery retried for days cannot grow without end); attemptCount counts them all.`,
    type: 'object',
    additionalProperties: false,
    required: ['id', 'eventId', 'type', 'jobId', 'status', 'attempts', 'attemptCount', 'nextAttemptAt', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: ORDER_ID_PATTERN },
      eventId: { type: 'string', description: 'the id of the store\'s event it sends (the message\'s webhook-id is evt_ and this id)' },
      type: { type: 'string', enum: WEBHOOK_EVENT_TYPES, description: 'the webhook event type' },
      jobId: { type: ['string', 'null'], pattern: ORDER_ID_PATTERN, description: 'the replay (GET /jobs/{jobId}) that sent the event again; null for its first delivery' },
      status: {
        type: 'string',
        enum: DELIVERY_STATUSES,
        description: 'pending: an attempt is due at nextAttemptAt (the last one failed and will be retried, or a retry was asked for); succeeded: a 2xx answer came within 10 s; failed: every attempt failed, for about 3 days, and no more are made unless a retry is asked for',
      },
      attempts: {
        type: 'array',
        maxItems: MAX_ATTEMPTS_KEPT,
        description: `the latest ${MAX_ATTEMPTS_KEPT} attempts, oldest first`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['at', 'durationMs'],
          anyOf: [{ required: ['statusCode'] }, { required: ['error'] }],
          properties: {
            at: { type: 'string', format: 'date-time', description: 'when the attempt began' },
            statusCode: { type: 'integer', minimum: 100, maximum: 599, description: 'the receiver\'s answer; left out when none came' },
            error: { type: 'string', description: 'why no answer came (a timeout, a refused connection, an address refused at connect time); left out when one came' },
            durationMs: { type: 'integer', minimum: 0, description: 'how long the attempt took' },
          },
        },
      },
      attemptCount: { type: 'integer', minimum: 0, description: 'how many attempts were made in all, those no longer listed included' },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time', description: 'when the next attempt is due; null unless pending' },
      createdAt: { type: 'string', format: 'date-time', description: 'its first attempt (or the retry request that came first): the page\'s order' },
      updatedAt: { type: 'string', format: 'date-time', description: 'its latest attempt or retry request' },
    },
  },
  WebhookDeliveryPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/WebhookDelivery' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
  WebhookDeliveryRetry: {
    description: 'A retry request, as recorded in the delivery log.',
    type: 'object',
    additionalProperties: false,
    required: ['deliveryId', 'requestedAt'],
    properties: {
      deliveryId: { type: 'string', pattern: ORDER_ID_PATTERN },
      requestedAt: { type: 'string', format: 'date-time', description: 'when it was asked for: the delivery is attempted again from then' },
    },
  },
  WebhookDeliveryQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      status: { type: 'string', enum: DELIVERY_STATUSES, description: 'only the deliveries of this status' },
      jobId: { type: 'string', pattern: ORDER_ID_PATTERN, description: 'only the deliveries of this replay (its job\'s id)' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      cursor: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  NewWebhookReplay: {
    type: 'object',
    additionalProperties: false,
    required: ['from'],
    properties: {
      from: { type: 'string', minLength: 1, maxLength: 64, description: 'the first event to send again: a log position (a message\'s position, 32 hexadecimal digits), or an RFC 3339 instant (the first event recorded at or after it); inclusive' },
      to: { type: 'string', minLength: 1, maxLength: 64, description: 'the last event: a log position or an RFC 3339 instant (the last event recorded at or before it); inclusive. Absent: the log\'s head when the replay is asked for' },
    },
  },
  WebhookSubscriptionPage: {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/WebhookSubscription' } },
      nextCursor: { type: ['string', 'null'] },
    },
  },
} as const;
