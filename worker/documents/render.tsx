/**
 * A tax invoice or credit note as a printable HTML document: one A4 page per sheet, its own small
 * stylesheet, no script, no picture, nothing fetched. Rendered once, when the document is issued,
 * and stored; what is shown later is always the stored text.
 *
 * What it prints (CGST Rule 46 for an invoice, Rule 53 for a credit note): the supplier's name,
 * address and GSTIN; the number and date; the recipient's name and address with its state name and
 * code, and GSTIN when registered; the delivery address with its state name and code; per line the
 * description, HSN, quantity, unit, value, discount, taxable value and the rate and amount of each
 * tax; shipping as its own line; totals and the total in words; the place of supply; whether tax is
 * payable on reverse charge (never, for these supplies); an export's endorsement; a credit note's
 * invoice (number and date) and reason.
 */

import { orderDate } from '@shared/components/order/order-text'
import { formatMinorIndian } from '@shared/domain/currency'
import { placeOfSupplyLabel } from '@shared/domain/gst'
import type { DocumentLine, InvoiceFigures, Party } from '@shared/domain/tax-document'
import { renderToReadableStream } from 'react-dom/server.node'

export interface DocumentData {
  kind: 'invoice' | 'credit_note'
  number: string
  /** The document's date in India, YYYY-MM-DD. */
  date: string
  orderNumber: string
  /** When the order was placed (UTC, 'YYYY-MM-DD HH:MM:SS'). */
  orderDate: string
  /** The currency the order was charged in (the document is in INR). */
  currency: string
  figures: InvoiceFigures
  /** A credit note's invoice. */
  invoice?: { number: string; date: string }
  reason?: string
}

/** The document's constant stylesheet (A4, printable in black and white). */
const DOCUMENT_CSS = `
@page{size:A4;margin:12mm}*{box-sizing:border-box}
body{font:10pt/1.35 system-ui,Arial,sans-serif;color:#000;margin:0 auto;max-width:190mm;padding:8mm 0}
h1{font-size:15pt;margin:0 0 2mm}h2{font-size:10pt;margin:0 0 1mm;text-transform:uppercase;letter-spacing:.04em}
.top{display:flex;justify-content:space-between;gap:8mm;border-bottom:1.5pt solid #000;padding-bottom:3mm}
.parties{display:grid;grid-template-columns:1fr 1fr;gap:6mm;margin:4mm 0}
.parties section{border:0.75pt solid #000;padding:2mm 3mm}
dl{display:grid;grid-template-columns:auto 1fr;gap:0 3mm;margin:0}dt{font-weight:600}dd{margin:0}
table{border-collapse:collapse;width:100%;margin:3mm 0}th,td{border:0.75pt solid #000;padding:1mm 1.5mm;vertical-align:top}
th{font-size:8pt;text-align:left;background:#eee}td.n,th.n{text-align:right;white-space:nowrap}
tfoot td{font-weight:700}.small{font-size:8pt}.endorse{font-weight:700;border:1pt solid #000;padding:2mm;margin:3mm 0}
.sign{margin-top:10mm;text-align:right}
@media print{body{padding:0}th{background:#eee;-webkit-print-color-adjust:exact;print-color-adjust:exact}}`

const money = (minor: number) => formatMinorIndian(minor, 'INR')
/** A date of India's calendar (YYYY-MM-DD) in words: '5 April 2026'. */
const day = (ymd: string) => orderDate(`${ymd} 12:00:00`)

function PartyBlock({ title, p }: { title: string; p: Party }) {
  return (
    <section>
      <h2>{title}</h2>
      <div>
        <strong>{p.name}</strong>
      </div>
      {p.address.map((l) => (
        <div key={l}>{l}</div>
      ))}
      <dl>
        {p.state ? (
          <>
            <dt>State</dt>
            <dd>{`${p.state.name}, code ${p.state.code}`}</dd>
          </>
        ) : (
          <>
            <dt>Country</dt>
            <dd>{p.country}</dd>
          </>
        )}
        {p.phone ? (
          <>
            <dt>Phone</dt>
            <dd>{p.phone}</dd>
          </>
        ) : null}
        {p.gstin ? (
          <>
            <dt>GSTIN</dt>
            <dd>{p.gstin}</dd>
          </>
        ) : null}
      </dl>
    </section>
  )
}

function Lines({ f }: { f: InvoiceFigures }) {
  const split = f.regime === 'cgst_sgst' || f.regime === 'cgst_utgst'
  const stateTax = f.regime === 'cgst_utgst' ? 'UTGST' : 'SGST'
  const other = f.destinationTaxLabel && f.lines.some((l) => l.destinationTaxMinor > 0)
  const rate = (l: DocumentLine, half: boolean) => `${half ? l.rate / 2 : l.rate}%`
  const t = f.totals
  return (
    <table>
      <thead>
        <tr>
          <th>#</th>
          <th>Description</th>
          <th>HSN</th>
          <th className="n">Qty</th>
          <th>Unit</th>
          <th className="n">Discount</th>
          <th className="n">Taxable value</th>
          {split ? (
            <>
              <th className="n">CGST</th>
              <th className="n">{stateTax}</th>
            </>
          ) : (
            <th className="n">IGST</th>
          )}
          {other ? <th className="n">{f.destinationTaxLabel}</th> : null}
          <th className="n">Total</th>
        </tr>
      </thead>
      <tbody>
        {f.lines.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a document's lines never move
          <tr key={`${l.sku}-${i}`}>
            <td>{i + 1}</td>
            <td>
              {l.description}
              {l.options.length ? (
                <div className="small">{l.options.map((o) => `${o.label}: ${o.value}`).join('; ')}</div>
              ) : null}
              {l.shipping ? null : <div className="small">{`SKU ${l.sku}`}</div>}
            </td>
            <td>{l.hsn ?? '—'}</td>
            <td className="n">{l.qty}</td>
            <td>{l.uqc}</td>
            <td className="n">{money(l.discountMinor)}</td>
            <td className="n">{money(l.taxableMinor)}</td>
            {split ? (
              <>
                <td className="n">
                  {rate(l, true)}
                  <br />
                  {money(l.cgst)}
                </td>
                <td className="n">
                  {rate(l, true)}
                  <br />
                  {money(l.sgst)}
                </td>
              </>
            ) : (
              <td className="n">
                {rate(l, false)}
                <br />
                {money(l.igst)}
              </td>
            )}
            {other ? <td className="n">{money(l.destinationTaxMinor)}</td> : null}
            <td className="n">{money(l.valueMinor)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={6}>Total</td>
          <td className="n">{money(t.taxableMinor)}</td>
          {split ? (
            <>
              <td className="n">{money(t.cgst)}</td>
              <td className="n">{money(t.sgst)}</td>
            </>
          ) : (
            <td className="n">{money(t.igst)}</td>
          )}
          {other ? <td className="n">{money(t.destinationTaxMinor)}</td> : null}
          <td className="n" data-total={t.valueMinor}>
            {money(t.valueMinor)}
          </td>
        </tr>
      </tfoot>
    </table>
  )
}

function TaxDocument({ d }: { d: DocumentData }) {
  const f = d.figures
  const credit = d.kind === 'credit_note'
  const title = credit ? 'Credit Note' : f.place.kind === 'abroad' ? 'Tax Invoice (Export)' : 'Tax Invoice'
  const place =
    f.place.kind === 'abroad'
      ? `Outside India (${f.place.country}) — ${placeOfSupplyLabel(f.place)}`
      : `${f.place.state.name} (${f.place.state.code})`
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="robots" content="noindex,nofollow" />
        <title>{`${title} ${d.number}`}</title>
        <style dangerouslySetInnerHTML={{ __html: DOCUMENT_CSS }} />
      </head>
      <body>
        <div className="top">
          <div>
            <h1>{title}</h1>
            <strong>{f.supplier.legalName}</strong>
            {f.supplier.address.map((l) => (
              <div key={l}>{l}</div>
            ))}
            <dl>
              <dt>GSTIN</dt>
              <dd data-gstin="supplier">{f.supplier.gstin}</dd>
              <dt>State</dt>
              <dd>{`${f.supplier.state.name}, code ${f.supplier.state.code}`}</dd>
            </dl>
          </div>
          <dl>
            <dt>{credit ? 'Credit note no.' : 'Invoice no.'}</dt>
            <dd data-document-number="">{d.number}</dd>
            <dt>Date</dt>
            <dd>{day(d.date)}</dd>
            {d.invoice ? (
              <>
                <dt>Against invoice</dt>
                <dd>{`${d.invoice.number} of ${day(d.invoice.date)}`}</dd>
              </>
            ) : null}
            <dt>Order</dt>
            <dd>{`${d.orderNumber} of ${orderDate(d.orderDate)}`}</dd>
            <dt>Place of supply</dt>
            <dd>{place}</dd>
            <dt>Reverse charge</dt>
            <dd>No</dd>
          </dl>
        </div>
        <div className="parties">
          <PartyBlock title={credit ? 'Recipient' : 'Billed to'} p={f.recipient} />
          <PartyBlock title="Delivered to" p={f.delivery} />
        </div>
        {f.endorsement ? <p className="endorse">{f.endorsement}</p> : null}
        {f.endorsement && f.supplier.lut && f.regime === 'export_lut' ? (
          <p className="small">Letter of undertaking: {f.supplier.lut}</p>
        ) : null}
        <Lines f={f} />
        <p>
          <strong>{credit ? 'Amount credited in words:' : 'Invoice value in words:'}</strong> {f.totals.words}
        </p>
        {credit && d.reason ? <p>Reason: {d.reason}</p> : null}
        {!credit && f.storeCreditMinor > 0 ? (
          <p>{`Paid with store credit: ${money(f.storeCreditMinor)} (a payment: the taxable value is not reduced).`}</p>
        ) : null}
        {!credit && f.vouchers.length ? (
          <>
            <h2>Also on this order — not a supply of goods</h2>
            <p className="small">
              Gift cards are vouchers: no GST is charged when they are sold; tax is due on the goods they are
              later exchanged for.
            </p>
            <ul>
              {f.vouchers.map((v) => (
                <li key={v.sku}>{`${v.qty} × ${v.description}: ${money(v.valueMinor)}`}</li>
              ))}
            </ul>
          </>
        ) : null}
        {d.currency !== 'INR' ? (
          <p className="small">{`The order was charged in ${d.currency}; the amounts above are in Indian rupees at the rate of the order.`}</p>
        ) : null}
        <div className="sign">
          <div>{`For ${f.supplier.legalName}`}</div>
          <div className="small">Authorised signatory — this document is computer-generated.</div>
        </div>
      </body>
    </html>
  )
}

/** The whole HTML document of an invoice or credit note. */
export async function renderDocumentHtml(d: DocumentData): Promise<string> {
  const stream = await renderToReadableStream(<TaxDocument d={d} />)
  await stream.allReady
  return new Response(stream).text()
}
