/** GST reports: a month's totals, the check against the money, and the GSTR-1 and register CSVs. */
import type { Context } from 'hono'
import { GSTR1_SECTIONS } from '../../documents/gstr1'
import type { MonthSummary } from '../../documents/reports'
import type { AdminEnv } from '../env'
import { Field, money } from './components'
import { renderAdmin } from './frame'

const SECTION_NAMES: Record<(typeof GSTR1_SECTIONS)[number], string> = {
  b2b: 'B2B invoices (buyers with a GSTIN)',
  b2cl: 'B2C large (inter-state above ₹1,00,000)',
  b2cs: 'B2C small (by state and rate)',
  exp: 'Exports',
  cdnr: 'Credit notes to registered buyers',
  cdnur: 'Credit notes to unregistered buyers (B2C large, exports)',
  hsn_b2b: 'HSN summary, B2B',
  hsn_b2c: 'HSN summary, B2C',
  docs: 'Documents issued',
}

export function gstReportsPage(c: Context<AdminEnv>, s: MonthSummary, sellerProblems: readonly string[]) {
  const inr = (minor: number) => money(minor, 'INR')
  const row = (label: string, x: MonthSummary['invoices']) => (
    <tr>
      <td>{label}</td>
      <td>{x.count}</td>
      <td>{inr(x.taxable)}</td>
      <td>{inr(x.cgst)}</td>
      <td>{inr(x.sgst)}</td>
      <td>{inr(x.igst)}</td>
      <td>{inr(x.other)}</td>
      <td>{inr(x.total)}</td>
    </tr>
  )
  const reconciles = s.net === s.money.net
  return renderAdmin(
    c,
    'GST reports',
    <>
      {sellerProblems.length ? (
        <div className="card" role="alert">
          <h2>Tax documents are not being issued</h2>
          <p>The seller's GST registration is not configured correctly:</p>
          <ul>
            {sellerProblems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <form className="inline" method="get" action="/admin/tax">
        <Field label="Month" type="month" name="month" defaultValue={s.month} required />
        <button type="submit">Show</button>
      </form>
      <div className="card">
        <h2>{`Documents issued in ${s.month}`}</h2>
        <div className="scroll">
          <table>
            <thead>
              <tr>
                <th>Documents</th>
                <th>Count</th>
                <th>Taxable value</th>
                <th>CGST</th>
                <th>SGST/UTGST</th>
                <th>IGST</th>
                <th>Other tax</th>
                <th>Total</th>
              </tr>
            </thead>
            <tbody>
              {row('Invoices', s.invoices)}
              {row('Credit notes', s.creditNotes)}
            </tbody>
          </table>
        </div>
        <p data-testid="gst-net">{`Invoices less credit notes: ${inr(s.net)}`}</p>
        <p data-testid="gst-money">
          {`Paid for the invoiced orders: ${inr(s.money.paid)}; given back in the month: ${inr(s.money.givenBack)}; net ${inr(s.money.net)} — `}
          <strong>
            {reconciles ? 'reconciles to the paisa' : 'DOES NOT reconcile: look at the sales register'}
          </strong>
        </p>
        {s.otherCurrencies ? (
          <p>{`${s.otherCurrencies} documents belong to orders charged in another currency: their rupee values come from the order's rate and are not part of the money check.`}</p>
        ) : null}
        {s.truncated ? (
          <p role="alert">This month has more documents than one report reads; the CSVs stop there.</p>
        ) : null}
      </div>
      <div className="card">
        <h2>GSTR-1 (CSV, the offline tool's columns)</h2>
        <ul>
          {GSTR1_SECTIONS.map((section) => (
            <li key={section}>
              <a href={`/admin/api/tax/gstr1.csv?month=${s.month}&section=${section}`}>
                {SECTION_NAMES[section]}
              </a>
            </li>
          ))}
        </ul>
        <h2>Sales register</h2>
        <p>
          <a href={`/admin/api/tax/register.csv?month=${s.month}`}>
            Every invoice and credit note of the month (CSV)
          </a>
        </p>
      </div>
    </>,
  )
}
