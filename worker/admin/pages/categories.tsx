/**
 * Categories: the tree as the menu orders it, a category created under a parent, each renamed or
 * moved from its row (Edit) and moved up or down among its siblings.
 */
import type { Category } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import { Choice, Field, GroupError, PostForm, Table, Toggle, Unfold } from './components'
import { renderAdmin } from './frame'

const BACK = '/admin/categories'
/** A category's moves among its siblings: the direction sent and its button. */
const MOVES = [
  ['up', 'Up'],
  ['down', 'Down'],
] as const

export function categoriesPage(c: Context<AdminEnv>, tree: Category[]) {
  const parents = [
    ['2', 'the top of the menu'] as const,
    ...tree.map((k) => [String(k.id), `${'— '.repeat(Math.max(0, k.level - 2))}${k.name}`] as const),
  ]
  const inMenu = (k: Category) => k.include_in_menu === true || k.include_in_menu === 1
  return renderAdmin(
    c,
    'Categories',
    <>
      <p>
        <a href="/admin/products">Back to the catalogue</a>. The menu shows a category that is in the menu and
        has products or subcategories; a change shows on the shop at the next request.
      </p>
      <section className="card" aria-labelledby="new-category">
        <h2 id="new-category">New category</h2>
        <PostForm needs="catalogue" action="/admin/api/categories" back={BACK} label="Create the category">
          <Field label="Name" name="name" required maxLength={100} />
          <Choice label="Under" name="parent_id" options={parents} />
          <GroupError name="parent_id" />
          <Field label="URL key (from the name if empty)" name="url_key" placeholder="festive-edit" />
          <Toggle label="In the menu" name="include_in_menu" value="on" defaultChecked />
        </PostForm>
      </section>
      <Table
        rows={tree}
        rowKey={(k) => k.id}
        columns={[
          {
            header: 'Category',
            cell: (k) => (
              <>
                {'— '.repeat(Math.max(0, k.level - 2))}
                <a href={`/${k.url_path}`}>{k.name}</a>
              </>
            ),
          },
          { header: 'Address', cell: (k) => `/${k.url_path}` },
          { header: 'Products', cell: (k) => String(k.product_count ?? 0) },
          { header: 'Menu', cell: (k) => (inMenu(k) ? 'in the menu' : 'not in the menu') },
          {
            header: 'Order',
            cell: (k) => (
              <>
                {MOVES.map(([direction, label]) => (
                  <PostForm
                    key={direction}
                    needs="catalogue"
                    action={`/admin/api/categories/${k.id}/order`}
                    back={BACK}
                    formKey={direction}
                    label={label}
                    buttonLabel={`Move ${k.name} ${direction}`}
                  >
                    <input type="hidden" name="direction" value={direction} />
                  </PostForm>
                ))}
              </>
            ),
          },
          {
            header: 'Change',
            cell: (k) => (
              <Unfold
                needs="catalogue"
                summary="Rename or move"
                summaryLabel={`Rename or move ${k.name}`}
                action={`/admin/api/categories/${k.id}`}
                back={BACK}
                label="Save"
                buttonLabel={`Save ${k.name}`}
              >
                <Field label="Name" name="name" defaultValue={k.name} required maxLength={100} />
                <Choice label="Under" name="parent_id" options={parents} defaultValue={String(k.parent_id)} />
                <GroupError name="parent_id" />
                <Field label="URL key" name="url_key" defaultValue={k.url_key} />
                <Toggle label="In the menu" name="include_in_menu" value="on" defaultChecked={inMenu(k)} />
              </Unfold>
            ),
          },
        ]}
      />
    </>,
  )
}
