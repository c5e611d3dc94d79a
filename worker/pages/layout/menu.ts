/**
 * The header menu: `buildMenu` (categories shown in the menu that have products or children,
 * ordered by mp_new_attribute, a missing value counting as 100000) over the Commerce port's category
 * tree (memoised per isolate for one catalogue version). The app hands this loader to the default
 * layout (worker/index.ts).
 */

import { buildMenu } from '@shared/domain/menu'
import type { Context } from 'hono'
import type { MenuItem } from '../../../client/islands/layout/header'
import { getCommerce } from '../../commerce'
import { derivedFrom } from '../../commerce/derived'
import type { AppEnv } from '../../platform/env'

export async function loadMenu(c: Context<AppEnv>): Promise<MenuItem[]> {
  const tree = await getCommerce(c).getCategoryTree()
  // Built once per version of the (memoised) category tree.
  return derivedFrom(tree, 'menu', () => buildMenu(tree))
}
