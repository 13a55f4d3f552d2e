import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiData, ApiDocs, ApiErrors, ApiIdParam, ApiListQuery, ApiPaginated, dataSchema } from '#app/platform';
import { DeliveryDto, EndpointDto, EndpointWithSecretDto, SecretDto, WEBHOOK_PAYLOADS } from './webhook.responses.js';

const PERMISSION =
  'Addition. Permission: manage-integrations. Another organisation’s endpoint is a 404 (docs/webhooks.md).';
const ID = () => ApiIdParam('id', 'The endpoint');
const NOT_FOUND = { 404: 'No endpoint of the caller’s organisation has this id.' };
const SETTINGS_422 = {
  422: 'url not http(s), over 2,048 characters or naming an address that is not public (see the url’s description); events empty or naming an unknown type.',
};

/** What the OpenAPI document says of WebhooksController: one composed decorator per route. */
export const WebhooksDocs = {
  controller: () => ApiDocs(ApiTags('webhooks'), ApiBearerAuth(), ApiExtraModels(...WEBHOOK_PAYLOADS, DeliveryDto)),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        description: `${PERMISSION} Newest first; never a secret.`,
      }),
      ApiData(EndpointDto, { isArray: true, description: 'The organisation’s endpoints' }),
      ApiErrors(400, 401, 403, 406),
    ),
  create: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createWebhook',
        summary: 'Create a webhook endpoint',
        description:
          `${PERMISSION} Answers the endpoint with its \`secret\` (\`whsec_\` + base64 of 32 random bytes), shown this once. ` +
          'Every event of a subscribed type is then POSTed to the url, signed per Standard Webhooks; the payload of ' +
          'each type is a schema of this document (WebhookShiftEvent, WebhookRotaEvent, WebhookClaimEvent, ' +
          'WebhookExpenseEvent, WebhookRepeatingShiftEvent, WebhookUserEvent, WebhookPingEvent). `enabled` defaults to true.',
      }),
      ApiData(EndpointWithSecretDto, { status: 201, description: 'The new endpoint and its secret' }),
      ApiErrors(400, 401, 403, 406, 413, 422, SETTINGS_422),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getWebhook',
        summary: 'Show a webhook endpoint',
        description: `${PERMISSION} Never the secret.`,
      }),
      ID(),
      ApiData(EndpointDto),
      ApiErrors(400, 401, 403, 404, 406, NOT_FOUND),
    ),
  update: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint',
        description:
          `${PERMISSION} Any of url, events, description, enabled; the others stay. ` +
          'A change that changes nothing records nothing. A disabled endpoint gets nothing but pings: what it is already ' +
          'owed stays pending, neither attempted nor counted, and is sent when it is enabled again.',
      }),
      ID(),
      ApiData(EndpointDto, { description: 'The endpoint after the change' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
        ...NOT_FOUND,
        ...SETTINGS_422,
        409: 'A concurrent change won; retry.',
      }),
    ),
  remove: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: `${PERMISSION} Its pending deliveries are dropped; delivered and failed ones are no longer listed.`,
      }),
      ID(),
      ApiNoContentResponse({ description: 'Deleted; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, NOT_FOUND),
    ),
  rotate: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate a webhook endpoint’s secret',
        description:
          `${PERMISSION} Answers the new secret, this once. For 24 hours \`webhook-signature\` carries a signature ` +
          'with the old secret too (space-separated), so receivers can switch without losing a delivery. Takes no body.',
      }),
      ID(),
      ApiData(SecretDto, { description: 'The new secret' }),
      ApiErrors(400, 401, 403, 404, 406, 409, { ...NOT_FOUND, 409: 'A concurrent rotation won; retry.' }),
    ),
  ping: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'pingWebhook',
        summary: 'Ping a webhook endpoint',
        description:
          `${PERMISSION} Sends one \`ping\` event (data \`{ endpoint_id }\`) to the endpoint, whatever its events and enabled; ` +
          'answers its delivery at once (202): the worker sends it. Takes no body.',
      }),
      ID(),
      ApiAcceptedResponse({ description: 'The ping’s delivery, pending', schema: dataSchema(DeliveryDto) }),
      ApiErrors(400, 401, 403, 404, 406, NOT_FOUND),
    ),
  deliveries: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listWebhookDeliveries',
        summary: 'List a webhook endpoint’s deliveries',
        description:
          `${PERMISSION} Newest first: each event owed to the endpoint (its id is the webhook-id), its status, ` +
          'attempts and the last HTTP status. Retries come 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after a failed ' +
          'attempt; after the eighth the delivery is failed.',
      }),
      ID(),
      ApiListQuery(),
      ApiQuery({
        name: 'status',
        required: false,
        description: 'Only deliveries with this status; another value is a 422',
        schema: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      }),
      ApiPaginated(DeliveryDto),
      ApiErrors(400, 401, 403, 404, 406, 422, NOT_FOUND),
    ),
  retry: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a webhook delivery',
        description:
          `${PERMISSION} One more attempt at once, with the same webhook-id (a failed delivery that fails again stays ` +
          'failed; a pending one keeps its schedule). Answers the delivery (202); the worker sends it, once the endpoint ' +
          'is enabled if it is disabled. Takes no body.',
      }),
      ID(),
      ApiParam({
        name: 'deliveryId',
        required: true,
        description: 'The delivery (its webhook-id, `msg_…`)',
        schema: { type: 'string', maxLength: 100 },
      }),
      ApiAcceptedResponse({ description: 'The delivery, due now', schema: dataSchema(DeliveryDto) }),
      ApiErrors(400, 401, 403, 404, 406, 414, {
        404: 'No such endpoint of the organisation, or no such delivery of it.',
      }),
    ),
};
