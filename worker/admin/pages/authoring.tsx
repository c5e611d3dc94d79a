/**
 * Creating and editing a product: what it is (name, designer, description, fabric, care), where it
 * is (a primary category, others it is also listed in, URL key, SEO fields), what it costs and how much there is, and for a configurable
 * its colour × size matrix, each variant with its SKU, its own price (blank: the product's) and
 * its stock. Draft or published.
 */
import { baseCurrency } from '@shared/config/store'
import type { Product } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { Fragment } from 'react'
import { type AuthoringType, variantField } from '../authoring'
import type { Block } from '../content-blocks'
import type { AdminEnv } from '../env'
import { attributeField, type PickableAttribute } from '../product-attributes'
import { EDITOR_MARK } from '../product-description'
import { BundleOptions, GroupedMembers, MemberChoices, VirtualStock } from './authoring-sets'
import { BlockEditor, BlockPreview, type LibraryPicture } from './block-editor'
import { Choice, Field, GroupError, MoneyInput, money, PostForm, paise, Table } from './components'
import { renderAdmin } from './frame'
import { ProductPhotos } from './product-photos'

interface Option {
  id: number
  label: string
}

/**
 * One box per option (`<box>_<id>`), ticked when the product has the option, after the reason the
 * group was refused.
 */
function OptionBoxes(props: {
  group: string
  box: string
  options: readonly Option[]
  have: number[] | null | undefined
}) {
  return (
    <>
      <GroupError name={props.group} />
      {props.options.map((o) => (
        <Field
          key={o.id}
          label={o.label}
          type="checkbox"
          name={`${props.box}_${o.id}`}
          defaultChecked={(props.have ?? []).includes(o.id)}
        />
      ))}
    </>
  )
}

interface AuthoringView {
  product: { doc: Product; revision: number; stock: Record<string, number> } | null
  type: AuthoringType
  categories: { id: number; name: string; url_path: string }[]
  colours: Option[]
  sizes: Option[]
  /** The catalogue's attributes picked on the form (./product-attributes.ts). */
  attributes: PickableAttribute[]
  /** The products a grouped or bundle product may list. */
  members: { sku: string; name: string }[]
  /** The media library's pictures (path → alt text) a photograph may be picked from. */
  library?: Map<string, string>
  /** The description's block editor: its blocks (saved or a draft), their preview, the library. */
  editor: { blocks: Block[]; preview: string; media: LibraryPicture[]; draft: boolean }
}

/** Where the product form posts: a new product, or the product `id`. */
export const authoringAction = (id: number | null) =>
  id === null ? '/admin/api/products/authoring' : `/admin/api/products/${id}/authoring`

/** Each type's name on the page. */
const TYPE_NAMES: Record<AuthoringType, string> = {
  simple: 'Simple product',
  configurable: 'Configurable product (colours × sizes)',
  virtual: 'Virtual product (a service or an e-gift: not shipped)',
  grouped: 'Grouped product (a set of products bought together)',
  bundle: 'Bundle (the shopper picks one product of each option)',
}

export function authoringPage(c: Context<AdminEnv>, view: AuthoringView) {
  const p = view.product?.doc ?? null
  const id = p?.id ?? null
  const action = authoringAction(id)
  const back = id === null ? `/admin/products/new?type=${view.type}` : `/admin/products/${id}/edit`
  const children = p?.configurable_children ?? []
  const isSet = view.type === 'grouped' || view.type === 'bundle'
  const title = p ? `Edit ${p.name}` : `New ${TYPE_NAMES[view.type].split(' (')[0]?.toLowerCase()}`
  return renderAdmin(
    c,
    title,
    <>
      {p ? (
        <p>
          {p.status === 1 ? (
            <>
              Published at <a href={`/${p.url_path}`}>/{p.url_path}</a>
            </>
          ) : (
            'Draft: not on the shop until published.'
          )}
        </p>
      ) : (
        <ul>
          {Object.entries(TYPE_NAMES).map(([type, name]) => (
            <li key={type}>
              {type === view.type ? (
                <strong>{name}</strong>
              ) : (
                <a href={`/admin/products/new?type=${type}`}>{name}</a>
              )}
            </li>
          ))}
        </ul>
      )}
      {p ? (
        <ProductPhotos
          product={p}
          revision={view.product?.revision ?? 0}
          back={back}
          library={view.library}
        />
      ) : null}
      <PostForm needs="catalogue" action={action} back={back} label={p ? 'Save product' : 'Create product'}>
        <input type="hidden" name="type_id" value={view.type} />
        <input type="hidden" name="revision" value={String(view.product?.revision ?? 0)} />
        <fieldset>
          <legend>The product</legend>
          <Field label="SKU" name="sku" required maxLength={64} defaultValue={p?.sku} readOnly={p !== null} />
          <Field label="Name" name="name" required maxLength={200} defaultValue={p?.name} />
          <Field
            label="Designer's name as shown (blank: the designer picked below)"
            name="designer_name"
            maxLength={100}
            defaultValue={p?.designer_name ?? undefined}
          />
          <Field label="Fabric" name="fabric" maxLength={300} defaultValue={stringOf(p, 'fabric')} />
          <Field label="Care" name="care" maxLength={300} defaultValue={stringOf(p, 'care')} />
          {view.attributes.map((a) => (
            <Fragment key={a.code}>
              <Choice
                label={a.label}
                name={attributeField(a.code)}
                defaultValue={attributeOf(p, a.code)}
                options={[['', '(none)'], ...a.options.map((o) => [o.value, o.label] as const)]}
              />
              <GroupError name={attributeField(a.code)} />
            </Fragment>
          ))}
          <Field
            label="HSN code"
            name="hsn_code"
            inputMode="numeric"
            placeholder="4, 6 or 8 digits"
            defaultValue={p?.hsn_code ?? undefined}
          />
          <Field
            label="Made-to-order lead time (days)"
            name="delivery_days"
            inputMode="numeric"
            defaultValue={p?.delivery_days == null ? undefined : String(p.delivery_days)}
          />
          {view.type === 'virtual' ? null : (
            <Field
              label={
                <>
                  Size chart (a code from <a href="/admin/size-charts">Size charts</a>; blank: its
                  category&apos;s)
                </>
              }
              name="size_guide"
              maxLength={60}
              defaultValue={typeof p?.size_guide === 'string' ? p.size_guide : undefined}
            />
          )}
        </fieldset>
        <DescriptionEditor editor={view.editor} />
        <fieldset>
          <legend>Where it is</legend>
          <Choice
            label="Primary category (its address and breadcrumbs)"
            name="category_id"
            defaultValue={p?.category_ids[0] === undefined ? undefined : String(p.category_ids[0])}
            options={view.categories.map((k) => [String(k.id), `${k.name} (/${k.url_path})`] as const)}
          />
          <details open={(p?.category_ids.length ?? 0) > 1}>
            <summary>Also listed in</summary>
            <GroupError name="category_ids" />
            {view.categories.map((k) => (
              <Field
                key={k.id}
                label={`${k.name} (/${k.url_path})`}
                type="checkbox"
                name={`also_category_${k.id}`}
                defaultChecked={(p?.category_ids ?? []).slice(1).includes(k.id)}
              />
            ))}
          </details>
          <Field
            label="URL key (blank: from the name and SKU)"
            name="url_key"
            maxLength={120}
            defaultValue={p?.url_key}
          />
          <Field
            label="SEO title"
            name="meta_title"
            maxLength={200}
            defaultValue={p?.meta_title ?? undefined}
          />
          <Field
            label="SEO description"
            name="meta_description"
            maxLength={500}
            defaultValue={p?.meta_description ?? undefined}
          />
        </fieldset>
        {isSet ? (
          <>
            <MemberChoices members={view.members} />
            {view.type === 'grouped' ? <GroupedMembers product={p} /> : <BundleOptions product={p} />}
            <p>
              The price follows from the products in the set, and so does its stock
              {p ? ` (now ${money(paise(p.price), baseCurrency())})` : ''}.
            </p>
          </>
        ) : (
          <fieldset>
            <legend>Price and stock</legend>
            <MoneyInput label="Price (₹)" name="price" required minorValue={paise(p?.price)} />
            <Field
              label={view.type === 'configurable' ? 'Stock of each new variant' : 'Stock'}
              name="qty"
              inputMode="numeric"
              defaultValue={
                view.type !== 'configurable' && p ? String(view.product?.stock[p.sku] ?? 0) : undefined
              }
            />
            {view.type === 'virtual' ? (
              <VirtualStock product={p} />
            ) : (
              <Field
                label="Shipped weight (grams)"
                name="weight"
                inputMode="numeric"
                defaultValue={typeof p?.weight === 'number' ? String(Math.round(p.weight * 1000)) : undefined}
              />
            )}
          </fieldset>
        )}
        {view.type === 'configurable' ? (
          <fieldset>
            <legend>Colours × sizes</legend>
            <OptionBoxes group="colours" box="colour" options={view.colours} have={p?.color_options} />
            <OptionBoxes group="sizes" box="size" options={view.sizes} have={p?.size_options} />
            {children.length ? (
              <Table
                rows={children}
                rowKey={(ch) => ch.id}
                columns={[
                  { header: 'Variant', cell: (ch) => ch.name },
                  {
                    header: 'SKU',
                    cell: (ch) => (
                      <Field
                        label={<span className="sr-only">SKU of {ch.name}</span>}
                        name={variantField(Number(ch.color), Number(ch.size), 'sku')}
                        defaultValue={ch.sku}
                      />
                    ),
                  },
                  {
                    header: 'Own price (blank: the product’s)',
                    cell: (ch) => (
                      <MoneyInput
                        label={<span className="sr-only">Price of {ch.name}</span>}
                        name={variantField(Number(ch.color), Number(ch.size), 'price')}
                        minorValue={(ch as { own_price?: boolean }).own_price ? paise(ch.price) : undefined}
                      />
                    ),
                  },
                  {
                    header: 'Stock',
                    cell: (ch) => (
                      <Field
                        label={<span className="sr-only">Stock of {ch.name}</span>}
                        name={variantField(Number(ch.color), Number(ch.size), 'qty')}
                        inputMode="numeric"
                        defaultValue={String(view.product?.stock[ch.sku] ?? 0)}
                      />
                    ),
                  },
                ]}
              />
            ) : (
              <p>
                Each colour × size becomes a variant with its own SKU and stock; edit them after creating.
              </p>
            )}
          </fieldset>
        ) : null}
        <Choice
          label="State"
          name="status"
          defaultValue={p?.status === 1 ? 'published' : 'draft'}
          options={[
            ['draft', 'Draft (not on the shop)'],
            ['published', 'Published'],
          ]}
        />
      </PostForm>
    </>,
  )
}

/**
 * The description, written as blocks like a content page. Its Preview is the form's first button,
 * the one Enter presses: it shows the draft and saves nothing.
 */
function DescriptionEditor(props: { editor: AuthoringView['editor'] }) {
  const { editor } = props
  return (
    <fieldset aria-label="Description">
      <legend>Description</legend>
      <button type="submit" name="_op" value="preview">
        Preview description
      </button>
      <input type="hidden" name={EDITOR_MARK} value="1" />
      <GroupError name="description" />
      {editor.draft ? (
        <p role="status">
          This is a draft: nothing is saved until you press the button at the end of the form.
        </p>
      ) : null}
      <BlockEditor blocks={editor.blocks} media={editor.media} mayEdit />
      <BlockPreview html={editor.preview} title="Preview of the description (as the shop shows it)" />
    </fieldset>
  )
}

/** A picked attribute's option id as the form's choice holds it. */
function attributeOf(p: Product | null, code: string): string {
  const v = (p as Record<string, unknown> | null)?.[code]
  return typeof v === 'number' || typeof v === 'string' ? String(v) : ''
}

/** A text field of the document that the schema leaves loose (fabric, care). */
function stringOf(p: Product | null, key: string): string | undefined {
  const v = (p as Record<string, unknown> | null)?.[key]
  return typeof v === 'string' ? v : undefined
}
