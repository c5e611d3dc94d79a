/**
 * The routes of categories (./categories.ts) and size charts (./size-charts.ts): the pages (every
 * operator reads them) and the changes (the catalogue permission): create, rename or move, order a
 * category; save a size chart.
 */
import { Hono } from 'hono'
import {
  CategoryOrderSchema,
  CategorySaveSchema,
  categoryTree,
  orderCategory,
  saveCategory,
} from './categories'
import type { AdminEnv } from './env'
import { answer, readInput } from './input'
import { categoriesPage } from './pages/categories'
import { sizeChartsPage } from './pages/size-charts'
import { allow, positiveId } from './request'
import { designerNames, listSizeCharts, SizeChartSchema, saveSizeChart } from './size-charts'

export const categoryPages = new Hono<AdminEnv>()
categoryPages.get('/categories', async (c) => categoriesPage(c, await categoryTree(c.env.DB)))
categoryPages.get('/size-charts', async (c) =>
  sizeChartsPage(c, await listSizeCharts(c.env.DB), await designerNames(c.env.DB)),
)

export const categoryApi = new Hono<AdminEnv>()
categoryApi.get('/categories', async (c) => answer(c, await categoryTree(c.env.DB)))
categoryApi.post('/categories', allow('catalogue'), async (c) => {
  const req = await readInput(c, CategorySaveSchema, 'category')
  return answer(
    c,
    await saveCategory(c.env, null, req, c.var.operator.email, Date.now()),
    '/admin/categories',
  )
})
categoryApi.post('/categories/:id', allow('catalogue'), async (c) => {
  const id = positiveId(c, 'category')
  const req = await readInput(c, CategorySaveSchema, 'category')
  return answer(c, await saveCategory(c.env, id, req, c.var.operator.email, Date.now()), '/admin/categories')
})
categoryApi.post('/categories/:id/order', allow('catalogue'), async (c) => {
  const id = positiveId(c, 'category')
  const req = await readInput(c, CategoryOrderSchema, 'category order')
  return answer(
    c,
    await orderCategory(c.env, id, req.direction, c.var.operator.email, Date.now()),
    '/admin/categories',
  )
})
categoryApi.post('/size-charts', allow('catalogue'), async (c) => {
  const req = await readInput(c, SizeChartSchema, 'size chart')
  return answer(c, await saveSizeChart(c.env, req, c.var.operator.email, Date.now()), '/admin/size-charts')
})
