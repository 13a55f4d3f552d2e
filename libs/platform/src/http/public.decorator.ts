import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'http:public';

/** Opts a route (or controller) out of the global authentication guard. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
