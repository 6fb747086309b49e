// Exports (jobs): the JSON Schemas (2020-12) of the area's bodies, queries and answers, which its
// operations validate requests with and the OpenAPI document lists in components.schemas
// (gathered by api/areas.ts with the shared ones of api/schemas.ts, which these may $ref).
// A schema another area uses too belongs in api/schemas.ts.
import { RFC3339_PATTERN as RFC3339 } from '../schemas.js';

const JOB_ERROR = {
  description: 'why the job failed (an RFC 9457 problem); null unless it failed',
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'title', 'status', 'detail'],
      properties: { type: { type: 'string', format: 'uri' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
    },
  ],
} as const;

export const jobSchemas = {
  NewExport: {
    type: 'object',
    additionalProperties: false,
    required: ['format'],
    properties: {
      format: { type: 'string', enum: ['ndjson', 'csv'] },
      filter: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: {
            type: 'string',
            enum: ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'],
            description: 'as GET /orders reads it under the request\'s Api-Version: under 2026-11-01 and 2026-12-01 paid takes in partially shipped orders, and partially_shipped is a 400',
          },
          createdFrom: { type: 'string', pattern: RFC3339, description: 'inclusive' },
          createdTo: { type: 'string', pattern: RFC3339, description: 'exclusive' },
        },
      },
    },
  },
  ExportJob: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'type', 'status', 'progress', 'createdAt', 'startedAt', 'finishedAt', 'result', 'error'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', const: 'order-export' },
      status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
      format: { type: 'string', enum: ['ndjson', 'csv'] },
      filter: {
        type: 'object',
        additionalProperties: false,
        description: 'the filter as applied: bounds as UTC instants',
        properties: {
          status: { type: 'string', enum: ['pending', 'paid', 'partially_shipped', 'shipped', 'cancelled'] },
          createdFrom: { type: 'string', format: 'date-time' },
          createdTo: { type: 'string', format: 'date-time' },
        },
      },
      progress: { type: 'object', required: ['processed', 'total'], properties: { processed: { type: 'integer' }, total: { type: 'integer' } } },
      createdAt: { type: 'string', format: 'date-time' },
      startedAt: { type: ['string', 'null'], format: 'date-time' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
      result: {
        type: ['object', 'null'],
        required: ['href', 'contentType', 'count', 'bytes'],
        properties: { href: { type: 'string' }, contentType: { type: 'string' }, count: { type: 'integer' }, bytes: { type: 'integer' } },
      },
      resultExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'when the result file will be removed' },
      resultExpiredAt: { type: ['string', 'null'], format: 'date-time', description: 'when the result file was removed; result is then null' },
      error: JOB_ERROR,
    },
  },
  ReplayJob: {
    type: 'object',
    additionalProperties: false,
    description: 'A webhook replay (POST /webhook-subscriptions/{id}/replays): every event of the range the subscription selects is sent again, in log order per resource, with its original webhook-id.',
    required: ['id', 'type', 'status', 'subscriptionId', 'from', 'to', 'progress', 'createdAt', 'startedAt', 'finishedAt', 'result', 'error'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', const: 'webhook-replay' },
      status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
      subscriptionId: { type: 'string', format: 'uuid' },
      from: { type: 'string', description: 'a log position or an RFC 3339 instant (UTC), inclusive' },
      to: { type: 'string', description: 'a log position or an RFC 3339 instant (UTC), inclusive: the log\'s head at the request when none was given' },
      progress: {
        type: 'object',
        required: ['processed', 'total'],
        description: 'total: the events of the range the subscription selects (counted when the replay starts); processed: those whose delivery is final (succeeded, or failed for good)',
        properties: { processed: { type: 'integer' }, total: { type: 'integer' } },
      },
      createdAt: { type: 'string', format: 'date-time' },
      startedAt: { type: ['string', 'null'], format: 'date-time' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
      result: {
        type: ['object', 'null'],
        required: ['count'],
        description: 'once succeeded: how many events were sent, each to a final outcome (GET /webhook-subscriptions/{id}/deliveries?jobId= lists their deliveries)',
        properties: { count: { type: 'integer' } },
      },
      error: JOB_ERROR,
    },
  },
  Job: {
    description: 'A job: an order export or a webhook replay, told apart by type.',
    oneOf: [{ $ref: '#/components/schemas/ExportJob' }, { $ref: '#/components/schemas/ReplayJob' }],
    discriminator: { propertyName: 'type', mapping: { 'order-export': '#/components/schemas/ExportJob', 'webhook-replay': '#/components/schemas/ReplayJob' } },
  },
} as const;
