/**
 * Reading issued documents back. What is served is the stored text; the only change made on the
 * way out is the page's CSP nonce added to the document's one stylesheet, so the browser applies
 * it under the page's Content-Security-Policy (no script is ever allowed).
 */

interface StoredDocumentRow {
  id: number
  kind: 'invoice' | 'credit_note'
  number: string
  issued_on: string
  html: string
}

/** A download file name for a document number: 'OA/26-27/000123' → 'invoice-OA-26-27-000123.html'. */
export function documentFileName(kind: 'invoice' | 'credit_note', number: string): string {
  return `${kind === 'invoice' ? 'invoice' : 'credit-note'}-${number.replace(/[^A-Za-z0-9-]/g, '-')}.html`
}

/** One order's document: the invoice, or the document with this number; null when there is none. */
export async function storedDocument(db: D1Database, orderId: string, number?: string) {
  const row = await db
    .prepare(
      number
        ? 'SELECT id, kind, number, issued_on, html FROM tax_documents WHERE client_order_id = ?1 AND number = ?2'
        : "SELECT id, kind, number, issued_on, html FROM tax_documents WHERE client_order_id = ?1 AND kind = 'invoice'",
    )
    .bind(orderId, ...(number ? [number] : []))
    .first<StoredDocumentRow>()
  return row ? { ...row, fileName: documentFileName(row.kind, row.number) } : null
}

/** The stored document with the request's nonce on its stylesheet (the text is otherwise as stored). */
export function withStyleNonce(html: string, nonce: string | undefined): string {
  return nonce ? html.replace('<style>', `<style nonce="${nonce.replace(/[^A-Za-z0-9+/=_-]/g, '')}">`) : html
}
