import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GraphContext } from './microsoft.emulator.ts';
import { badRequest, GraphError, notFound } from './microsoft.errors.ts';
import { authorize } from './microsoft.graph-auth.ts';
import type { Category } from './microsoft.mailbox-store.ts';
import { applySelect, queryOptions } from './microsoft.odata.ts';
import { PERMISSIONS } from './microsoft.scopes.ts';

/** `none` or `preset0` … `preset24`. */
export const CATEGORY_COLORS = ['none', ...Array.from({ length: 25 }, (_, index) => `preset${index}`)] as [
  string,
  ...string[],
];
const colorSchema = z.enum(CATEGORY_COLORS);
const createSchema = z
  .object({ displayName: z.string().trim().min(1).max(255), color: colorSchema.optional() })
  .strict();
const updateSchema = z.object({ color: colorSchema }).strict();

const categoryJson = (category: Category) => ({
  id: category.id,
  displayName: category.displayName,
  color: category.color,
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const withoutAnnotations =
    typeof body === 'object' && body !== null
      ? Object.fromEntries(Object.entries(body).filter(([key]) => !key.startsWith('@odata.')))
      : body;
  const parsed = schema.safeParse(withoutAnnotations);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys' && issue.keys.includes('displayName')) {
    // displayName is immutable once the category exists.
    throw badRequest('ErrorInvalidRequest', 'The displayName of a category cannot be changed.');
  }
  if (issue?.code === 'unrecognized_keys') {
    throw badRequest(
      'RequestBodyRead',
      `The property '${issue.keys[0]}' does not exist on type 'microsoft.graph.outlookCategory'.`,
    );
  }
  throw badRequest(
    'RequestBodyRead',
    `Invalid value for '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`,
  );
}

export function registerCategoryRoutes(app: FastifyInstance, context: GraphContext): void {
  const { mailboxes } = context;
  const base = '/me/outlook/masterCategories';
  const metadata = (userId: string, suffix = '') =>
    `${context.getOrigin()}/v1.0/$metadata#users('${userId}')/outlook/masterCategories${suffix}`;
  const find = (request: FastifyRequest, userId: string) => {
    const category = mailboxes.category(userId, (request.params as { categoryId: string }).categoryId);
    if (!category) throw notFound();
    return category;
  };

  app.get(base, async (request) => {
    const { user } = authorize(request, PERMISSIONS.readMailboxSettings);
    const { $select } = queryOptions(request);
    return {
      '@odata.context': metadata(user.id),
      value: mailboxes
        .categories(user.id)
        .map((category) => applySelect(categoryJson(category), $select, ['id'])),
    };
  });

  app.get(`${base}/:categoryId`, async (request) => {
    const { user } = authorize(request, PERMISSIONS.readMailboxSettings);
    return { '@odata.context': metadata(user.id, '/$entity'), ...categoryJson(find(request, user.id)) };
  });

  app.post(base, async (request, reply) => {
    const { user } = authorize(request, PERMISSIONS.writeMailboxSettings);
    const input = parse(createSchema, request.body);
    if (mailboxes.categoryByName(user.id, input.displayName)) {
      throw new GraphError(
        409,
        'ErrorDuplicateCategory',
        `A category named '${input.displayName}' already exists.`,
      );
    }
    const category = mailboxes.createCategory(user.id, input.displayName, input.color ?? 'none');
    return reply
      .code(201)
      .send({ '@odata.context': metadata(user.id, '/$entity'), ...categoryJson(category) });
  });

  app.patch(`${base}/:categoryId`, async (request) => {
    const { user } = authorize(request, PERMISSIONS.writeMailboxSettings);
    const category = find(request, user.id);
    category.color = parse(updateSchema, request.body).color;
    return { '@odata.context': metadata(user.id, '/$entity'), ...categoryJson(category) };
  });

  app.delete(`${base}/:categoryId`, async (request, reply) => {
    const { user } = authorize(request, PERMISSIONS.writeMailboxSettings);
    mailboxes.deleteCategory(user.id, find(request, user.id).id);
    return reply.code(204).send();
  });
}
