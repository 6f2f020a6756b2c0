import { Router } from 'express';
import { CATEGORY_ID_PATTERN, NotifyError, categorySchema, parseOrThrow } from '@notify/core';
import type { ConsentSettings } from '@notify/pipeline';

function categoryId(raw: unknown): string {
  const id = String(raw);
  if (!CATEGORY_ID_PATTERN.test(id)) {
    throw new NotifyError('VALIDATION_FAILED', 'invalid category id', {
      details: [{ field: 'id', reason: 'must be 1-64 characters of letters, digits and . _ -' }],
    });
  }
  return id;
}

/**
 * PUT/GET/DELETE /v1/categories/:id and GET /v1/categories — the tenant's categories
 * (docs/preferences.md). Another tenant's category is simply not found.
 */
export function categoriesRouter(deps: { settings: ConsentSettings }): Router {
  const router = Router();

  router.get('/', async (_req, res) => {
    const list = await deps.settings.listCategories(res.locals.tenant as string);
    res.json({ categories: list.map(({ id, category }) => ({ id, ...category })) });
  });

  router.put('/:id', async (req, res) => {
    const id = categoryId(req.params.id);
    if (!req.is('application/json')) throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
    const category = parseOrThrow(categorySchema, req.body);
    const created = await deps.settings.putCategory(res.locals.tenant as string, id, category);
    res.status(created ? 201 : 200).json({ id, ...category });
  });

  router.get('/:id', async (req, res) => {
    const id = categoryId(req.params.id);
    const found = (await deps.settings.listCategories(res.locals.tenant as string)).find((c) => c.id === id);
    if (!found) throw new NotifyError('NOT_FOUND', `no category '${id}' for this tenant`);
    res.json({ id, ...found.category });
  });

  router.delete('/:id', async (req, res) => {
    const id = categoryId(req.params.id);
    if (!(await deps.settings.deleteCategory(res.locals.tenant as string, id))) throw new NotifyError('NOT_FOUND', `no category '${id}' for this tenant`);
    res.status(204).end();
  });

  return router;
}
