/**
 * The order's tax invoice and credit notes on its order page: each downloads as the HTML file the
 * shop stored when it was issued (open it and print, or save it as PDF). The request carries what
 * opened the order (customer token, guest access key in the body, order link in a header), never
 * anything in a URL. An order mail's invoice link (`#k=…&doc=invoice`) starts the invoice's
 * download once the page has loaded the order.
 */
import { useEffect, useRef, useState } from 'react'
import { ApiError, apiFile } from '../../api'
import { userToken } from '../../state/user'
import { type OrderAccess, orderCall } from './payment'

export interface OrderDocumentView {
  kind: 'invoice' | 'credit_note'
  number: string
  issuedOn: string
}

/** Downloads one document of the order (the browser saves the file the answer names). */
async function download(access: OrderAccess, number: string): Promise<void> {
  const { blob, fileName } = await apiFile('documents/get', {
    method: 'POST',
    token: userToken.peek(),
    headers: access.linkToken ? { 'x-order-link': access.linkToken } : {},
    body: {
      orderNumber: access.orderNumber,
      number,
      ...(access.accessKey ? { accessKey: access.accessKey } : {}),
    },
  })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = fileName ?? `${number.replace(/\//g, '-')}.html`
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function TaxDocuments({
  access,
  documents,
  autoInvoice,
}: {
  access: OrderAccess
  documents: readonly OrderDocumentView[]
  /** Start the invoice's download at once (the mail's invoice link). */
  autoInvoice: boolean
}) {
  const [message, setMessage] = useState<string | null>(null)
  const started = useRef(false)
  const get = (number: string) => {
    setMessage(null)
    download(access, number).catch((err: unknown) =>
      setMessage(
        err instanceof ApiError ? err.message : 'The document could not be downloaded. Please try again.',
      ),
    )
  }
  const invoice = documents.find((d) => d.kind === 'invoice')
  useEffect(() => {
    if (autoInvoice && invoice && !started.current) {
      started.current = true
      get(invoice.number)
    }
  })
  if (!documents.length) return null
  return (
    <section className="order-page__documents" data-testid="order-documents">
      <h2>Tax documents</h2>
      <ul>
        {documents.map((d) => (
          <li key={d.number}>
            <button type="button" className="btn btn--secondary" onClick={() => get(d.number)}>
              {`Download ${d.kind === 'invoice' ? 'tax invoice' : 'credit note'} ${d.number}`}
            </button>
          </li>
        ))}
      </ul>
      {message ? <p role="alert">{message}</p> : null}
    </section>
  )
}

/** The tax documents of a signed-in customer's order (my account), loaded with the order's page view. */
export function CustomerTaxDocuments({ orderNumber }: { orderNumber: string }) {
  const [documents, setDocuments] = useState<OrderDocumentView[]>([])
  useEffect(() => {
    void orderCall<{ documents?: OrderDocumentView[] }>('payment/order', { orderNumber })
      .then((r) =>
        setDocuments(r.code === 200 && typeof r.result === 'object' ? (r.result.documents ?? []) : []),
      )
      .catch(() => setDocuments([]))
  }, [orderNumber])
  return <TaxDocuments access={{ orderNumber }} documents={documents} autoInvoice={false} />
}
