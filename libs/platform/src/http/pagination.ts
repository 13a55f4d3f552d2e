/**
 * The pagination envelope (docs/http-conventions.md#pagination): counts as strings, absolute links,
 * absent links omitted.
 */
export interface Paginated<T> {
  data: T[];
  meta: {
    pagination: {
      total: string;
      count: string;
      per_page: string;
      current_page: string;
      total_pages: string;
      links: { next?: string; previous?: string };
    };
  };
}

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

export const PER_PAGE = { default: 15, max: 100 } as const;

export function offsetOf(page: PageRequest): number {
  return (page.page - 1) * page.perPage;
}

/**
 * `requestUrl` is the path and query the client called; links keep every other query parameter
 * and are made absolute with PUBLIC_URL.
 */
export function paginate<T>(
  items: T[],
  total: number,
  page: PageRequest,
  publicUrl: string,
  requestUrl: string,
): Paginated<T> {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const link = (target: number) => {
    const called = new URL(requestUrl, 'http://request.invalid');
    const absolute = new URL(publicUrl + called.pathname);
    absolute.search = called.search;
    absolute.searchParams.delete('limit');
    absolute.searchParams.set('page', String(target));
    absolute.searchParams.set('per_page', String(page.perPage));
    return absolute.toString();
  };
  const links: { next?: string; previous?: string } = {};
  if (page.page < totalPages) links.next = link(page.page + 1);
  if (page.page > 1) links.previous = link(Math.min(page.page - 1, totalPages));
  return {
    data: items,
    meta: {
      pagination: {
        total: String(total),
        count: String(items.length),
        per_page: String(page.perPage),
        current_page: String(page.page),
        total_pages: String(totalPages),
        links,
      },
    },
  };
}
