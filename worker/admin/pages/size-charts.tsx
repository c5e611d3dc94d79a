/**
 * Size charts: each chart by its code (a category's slug, a designer's, or a name products choose),
 * what it applies to, and which wins (the product's own, then its designer's, then its category's).
 */
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import { Choice, Field, PostForm, Table, TextArea, Unfold } from './components'
import { renderAdmin } from './frame'

interface Chart {
  id: number
  code: string
  title: string
  rows: string[][]
  note: string
  designer: string
  appliesTo: string
}

const BACK = '/admin/size-charts'
const ACTION = '/admin/api/size-charts'
const typed = (rows: string[][]) => rows.map((r) => r.join(', ')).join('\n')

export function sizeChartsPage(c: Context<AdminEnv>, charts: Chart[], designers: string[]) {
  return renderAdmin(
    c,
    'Size charts',
    <>
      <p>
        <a href="/admin/products">Back to the catalogue</a>. A chart whose code is a category&apos;s slug
        (kurtas, sarees) is shown on every product of that category sold in sizes; a chart made for a
        designer, on every product of that designer; a product can choose another chart on its own form. Rows:
        one a line, cells separated by commas, the first line the header.
      </p>
      <p>
        <strong>Which chart a product shows:</strong> the chart chosen on its own form, else its
        designer&apos;s chart, else its category&apos;s.
      </p>
      <section className="card" aria-labelledby="new-chart">
        <h2 id="new-chart">New size chart</h2>
        <PostForm needs="catalogue" action={ACTION} back={BACK} label="Save the chart" formKey="new">
          <Choice
            label="For a designer (leave empty for a category or a named chart)"
            name="designer"
            options={[['', 'No designer'], ...designers.map((d) => [d, d] as const)]}
          />
          <Field label="Code (a category slug, or a name; not needed for a designer)" name="code" />
          <Field label="Title" name="title" required />
          <TextArea
            label="Rows"
            name="rows"
            rows={6}
            defaultValue={'Size, Bust (in), Waist (in)\nS, 34, 28'}
          />
          <Field label="Note" name="note" />
        </PostForm>
      </section>
      <Table
        rows={charts}
        rowKey={(k) => k.id}
        columns={[
          { header: 'Code', cell: (k) => k.code },
          { header: 'Title', cell: (k) => k.title },
          { header: 'Applies to', cell: (k) => k.appliesTo },
          {
            header: 'Sizes',
            cell: (k) =>
              k.rows
                .slice(1)
                .map((r) => r[0])
                .join(' · '),
          },
          {
            header: 'Change',
            cell: (k) => (
              <Unfold
                needs="catalogue"
                summary="Edit"
                summaryLabel={`Edit the chart ${k.code}`}
                action={ACTION}
                back={BACK}
                label="Save"
                formKey={k.code}
              >
                <input type="hidden" name="code" value={k.code} />
                {k.designer ? <input type="hidden" name="designer" value={k.designer} /> : null}
                <Field label="Title" name="title" defaultValue={k.title} required />
                <TextArea
                  label="Rows"
                  name="rows"
                  rows={Math.min(12, k.rows.length + 1)}
                  defaultValue={typed(k.rows)}
                />
                <Field label="Note" name="note" defaultValue={k.note} />
              </Unfold>
            ),
          },
        ]}
      />
    </>,
  )
}
