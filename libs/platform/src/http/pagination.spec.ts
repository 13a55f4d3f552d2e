import { describe, expect, it } from '@jest/globals';
import { paginate } from './pagination.js';

describe('paginate', () => {
  const items = ['a', 'b'];

  it('declares every count as a string and links absolutely, keeping the other parameters', () => {
    const page = paginate(
      items,
      42,
      { page: 2, perPage: 2 },
      'https://vol.example',
      '/api/claims?approved=true&page=2&limit=2',
    );
    expect(page.meta.pagination).toEqual({
      total: '42',
      count: '2',
      per_page: '2',
      current_page: '2',
      total_pages: '21',
      links: {
        next: 'https://vol.example/api/claims?approved=true&page=3&per_page=2',
        previous: 'https://vol.example/api/claims?approved=true&page=1&per_page=2',
      },
    });
    expect(page.data).toBe(items);
  });

  it('omits the links that do not exist', () => {
    expect(paginate([], 0, { page: 1, perPage: 15 }, 'http://x', '/api/t').meta.pagination).toMatchObject({
      total_pages: '1',
      links: {},
    });
    const last = paginate(items, 17, { page: 2, perPage: 15 }, 'http://x', '/api/t');
    expect(last.meta.pagination.links.next).toBeUndefined();
    expect(last.meta.pagination.links.previous).toBe('http://x/api/t?page=1&per_page=15');
  });

  it('keeps a path prefix of PUBLIC_URL', () => {
    expect(paginate(items, 5, { page: 1, perPage: 2 }, 'https://host/vol', '/api/t').meta.pagination.links.next).toBe(
      'https://host/vol/api/t?page=2&per_page=2',
    );
  });
});
