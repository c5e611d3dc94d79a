/**
 * Breadcrumbs of the category and product pages: the crumbs from shared/domain/menu `breadcrumbs`
 * ('Default Category' shown as 'Home' linking to /, other crumbs as links, the active crumb plain
 * text marked as the current page).
 */
import type { Breadcrumb } from '../../domain/menu'

export function Breadcrumbs({ crumbs }: { crumbs: readonly Breadcrumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb" data-testid="breadcrumbs">
      <ol>
        {crumbs.map((c, i) =>
          c.href === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: crumbs are positional
            <li key={i} aria-current="page">
              {c.label}
            </li>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: crumbs are positional
            <li key={i}>
              <a href={c.href}>{c.label}</a>
            </li>
          ),
        )}
      </ol>
    </nav>
  )
}
