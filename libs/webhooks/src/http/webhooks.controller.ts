import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, NotFoundError, type Paginated, paginate, pathId } from '#app/platform';
import { Deliveries } from '../delivery/deliveries.js';
import { DeliveryRequests } from '../delivery/delivery-requests.js';
import { CreateEndpointCommand } from '../endpoint/create-endpoint.command.js';
import { DeleteEndpointCommand } from '../endpoint/delete-endpoint.command.js';
import { EndpointQueries } from '../endpoint/endpoint.queries.js';
import { RotateSecretCommand } from '../endpoint/rotate-secret.command.js';
import { UpdateEndpointCommand } from '../endpoint/update-endpoint.command.js';
import { WEBHOOKS_PERMISSION } from '../webhooks.policy.js';
import { CreateEndpointBody, DeliveryListQuery, UpdateEndpointBody } from './webhook.dto.js';
import { DeliveryDto, EndpointDto, EndpointWithSecretDto, SecretDto } from './webhook.responses.js';
import { WebhooksDocs } from './webhooks.openapi.js';

const ENDPOINT = 'Webhook endpoint';

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
@WebhooksDocs.controller()
@RequirePermission(WEBHOOKS_PERMISSION)
@Controller('api/webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly endpoints: EndpointQueries,
    private readonly deliveries: Deliveries,
    private readonly requests: DeliveryRequests,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @WebhooksDocs.list()
  async list(@CurrentCaller() caller: Caller): Promise<{ data: EndpointDto[] }> {
    return { data: await this.endpoints.list(caller) };
  }

  @Post()
  @HttpCode(201)
  @WebhooksDocs.create()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateEndpointBody,
  ): Promise<{ data: EndpointWithSecretDto }> {
    const { id, secret } = await this.commands.execute(
      new CreateEndpointCommand(caller, {
        url: body.url,
        events: body.events,
        description: body.description ?? '',
        enabled: body.enabled ?? true,
      }),
    );
    return { data: { ...(await this.endpoints.get(caller, id)), secret } };
  }

  @Get(':id')
  @WebhooksDocs.get()
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: EndpointDto }> {
    return { data: await this.endpoints.get(caller, pathId(id, ENDPOINT)) };
  }

  @Put(':id')
  @HttpCode(200)
  @WebhooksDocs.update()
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateEndpointBody,
  ): Promise<{ data: EndpointDto }> {
    const endpointId = pathId(id, ENDPOINT);
    const { url, events, description, enabled } = body;
    const changes = Object.fromEntries(
      Object.entries({ url, events, description, enabled }).filter(([, v]) => v !== undefined),
    );
    await this.commands.execute(new UpdateEndpointCommand(caller, endpointId, changes));
    return { data: await this.endpoints.get(caller, endpointId) };
  }

  @Delete(':id')
  @HttpCode(204)
  @WebhooksDocs.remove()
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.commands.execute(new DeleteEndpointCommand(caller, pathId(id, ENDPOINT)));
  }

  @Post(':id/secret')
  @HttpCode(200)
  @WebhooksDocs.rotate()
  async rotate(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: SecretDto }> {
    return { data: { secret: await this.commands.execute(new RotateSecretCommand(caller, pathId(id, ENDPOINT))) } };
  }

  @Post(':id/ping')
  @HttpCode(202)
  @WebhooksDocs.ping()
  async ping(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: DeliveryDto }> {
    return { data: await this.requests.ping(caller, pathId(id, ENDPOINT)) };
  }

  @Get(':id/deliveries')
  @WebhooksDocs.deliveries()
  async listDeliveries(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() query: DeliveryListQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<DeliveryDto>> {
    const endpointId = pathId(id, ENDPOINT);
    await this.endpoints.get(caller, endpointId);
    const { items, total } = await this.deliveries.list(caller, endpointId, query.status, query);
    return paginate(items, total, query, this.config.http.publicUrl, req.url);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @WebhooksDocs.retry()
  async retry(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<{ data: DeliveryDto }> {
    const endpointId = pathId(id, ENDPOINT);
    if (!/^msg_[A-Za-z0-9_-]{1,96}$/.test(deliveryId)) throw new NotFoundError('Delivery');
    return { data: await this.requests.retry(caller, endpointId, deliveryId) };
  }
}
