/**
 * Changing many products at once: the prices-and-stock file (download, dry run, apply) and an
 * action on products picked from the list. Each shows its dry run, the changes in rupees, and
 * applies only after a second deliberate click.
 */
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { Plan } from '../bulk'
import { MAX_CHANGED_PRODUCTS } from '../bulk'
import type { AdminEnv } from '../env'
import { Choice, Confirm, Field, GroupError, PostForm, Table, TextArea } from './components'
import { renderAdmin } from './frame'

interface BulkPageData {
  q: string
  hits: { id: number; sku: string; name: string; status: number; price: number }[]
  categories: { id: number; name: string; url_path: string }[]
  /** Products changed by the last apply (from the address after it). */
  applied?: number
  /** The file's dry run and the text it was read from. */
  filePlan?: { plan: Plan; csv: string }
  /** The action's dry run and the fields that asked for it. */
  actionPlan?: { plan: Plan; fields: [string, string][] }
}

const FILE_ACTION = '/admin/api/products/bulk/csv'
const PICK_ACTION = '/admin/api/products/bulk/action'

/** The changes of a dry run, one product a row, with how many stay as they are. */
function Changes(props: { plan: Plan; what: string }) {
  const { plan } = props
  return (
    <>
      <h3>Dry run: nothing is changed yet</h3>
      <p role="status">
        {plan.changes.length === 0
          ? `Nothing to change: ${props.what} matches the catalogue as it is.`
          : `${plan.changes.length} product${plan.changes.length === 1 ? '' : 's'} change (${props.what}).`}
      </p>
      {plan.changes.length ? (
        <Table
          rows={plan.changes}
          rowKey={(c) => c.id}
          columns={[
            { header: 'SKU', cell: (c) => c.sku },
            { header: 'Product', cell: (c) => c.name },
            {
              header: 'Change',
              cell: (c) => (
                <ul>
                  {c.words.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              ),
            },
          ]}
        />
      ) : null}
      {plan.refused.length ? (
        <div role="alert">
          <p>
            {plan.refused.length} product{plan.refused.length === 1 ? ' is' : 's are'} left out and not
            published (change the URL key on the product&apos;s form first):
          </p>
          <ul>
            {plan.refused.map((r) => (
              <li key={r.id}>
                {r.name} ({r.sku}) at {r.url}: {r.why}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  )
}

/**
 * A dry run and, when it changes anything, its confirmation: the same request again (`children`,
 * its fields) with the fingerprint of what was shown, behind a second deliberate click.
 */
function DryRun(props: {
  plan: Plan
  what: string
  action: string
  back: string
  label: string
  children: ReactNode
}) {
  const n = props.plan.changes.length
  return (
    <>
      <Changes plan={props.plan} what={props.what} />
      {n ? (
        <Confirm
          needs="bulk"
          summary={`Apply ${n === 1 ? 'this change' : 'these changes'} to ${n} product${n === 1 ? '' : 's'}…`}
          explanation="What is listed above is written to the shop at once; every page showing these products changes."
          action={props.action}
          back={props.back}
          label={props.label}
          formKey="apply"
        >
          {props.children}
          <input type="hidden" name="fingerprint" value={props.plan.fingerprint} />
          <input type="hidden" name="apply" value="1" />
        </Confirm>
      ) : null}
    </>
  )
}

export function bulkPage(c: Context<AdminEnv>, data: BulkPageData) {
  const back = `/admin/products/bulk${data.q ? `?q=${encodeURIComponent(data.q)}` : ''}`
  const file = data.filePlan
  const picked = data.actionPlan
  return renderAdmin(
    c,
    'Bulk changes',
    <>
      <p>
        <a href="/admin/products">Back to the catalogue</a>
      </p>
      {data.applied !== undefined ? (
        <p role="status">
          {data.applied} product{data.applied === 1 ? '' : 's'} changed; the shop shows the change now.
        </p>
      ) : null}
      <section className="card" aria-labelledby="by-file">
        <h2 id="by-file">Prices, special prices and stock from a file</h2>
        <p>
          <a href="/admin/api/products.csv" download>
            Download the catalogue as CSV
          </a>
          , change it in a spreadsheet and bring it back. One row per SKU: a size&apos;s row sets its stock;
          its price follows its product&apos;s row. Amounts in rupees (2400 or 2,400.50), dates as 2027-01-31.
          A column left out changes nothing; an empty special price removes it. One bad row refuses the whole
          file. At most {MAX_CHANGED_PRODUCTS} products change at a time.
        </p>
        <PostForm needs="bulk" action={FILE_ACTION} back={back} label="Dry run: show what changes" multipart>
          <Field label="CSV file" type="file" name="file" accept=".csv,text/csv" />
          <TextArea label="or paste its rows" name="csv" rows={6} />
        </PostForm>
        {file ? (
          <DryRun plan={file.plan} what="the file" action={FILE_ACTION} back={back} label="Apply the file">
            <textarea name="csv" hidden readOnly defaultValue={file.csv} />
          </DryRun>
        ) : null}
      </section>
      <section className="card" aria-labelledby="by-pick">
        <h2 id="by-pick">Change products picked from the list</h2>
        <search>
          <form className="inline" method="get">
            <Field label="SKU or name" name="q" defaultValue={data.q} />
            <button type="submit">Search</button>
          </form>
        </search>
        <PostForm needs="bulk" action={PICK_ACTION} back={back} label="Dry run: show what changes">
          <GroupError name="ids" />
          <Table
            rows={data.hits}
            rowKey={(p) => p.id}
            columns={[
              {
                header: 'Pick',
                cell: (p) => (
                  <Field
                    label={<span className="sr-only">Pick {p.sku}</span>}
                    type="checkbox"
                    name={`id_${p.id}`}
                  />
                ),
              },
              { header: 'SKU', cell: (p) => p.sku },
              { header: 'Product', cell: (p) => p.name },
              { header: 'Status', cell: (p) => (p.status === 1 ? 'published' : 'draft') },
            ]}
          />
          <Choice
            label="Change"
            name="action"
            options={[
              ['publish', 'Publish'],
              ['unpublish', 'Unpublish (back to draft)'],
              ['category', 'Add to the category'],
              ['percent', 'Change the price by a percentage'],
            ]}
          />
          <Choice
            label="Category"
            name="category_id"
            options={data.categories.map((k) => [String(k.id), `${k.name} (${k.url_path})`] as const)}
          />
          <Field label="Percentage (10 raises by 10 %, -10 lowers)" name="percent" inputMode="decimal" />
        </PostForm>
        {picked ? (
          <DryRun
            plan={picked.plan}
            what="the products picked"
            action={PICK_ACTION}
            back={back}
            label="Apply the change"
          >
            {picked.fields.map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
          </DryRun>
        ) : null}
      </section>
    </>,
  )
}
