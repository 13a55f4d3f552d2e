import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

export const PUBLIC_ROUTE = 'http:public';

/**
 * Opts a route (or controller) out of the global authentication guard, and says so in the OpenAPI
 * document: `security: [{}]` (no credentials) instead of the document's default bearer token.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiSecurity({} as never));
