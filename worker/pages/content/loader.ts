/**
 * CMS data for the content routes CMS pages by identifier and CMS blocks,
 * through the Commerce port only. Page and block HTML is sanitized to the allow-list here, once,
 * before it reaches a component. A missing page is 'CMS query returned empty result'; a missing
 * block is 'CMS block query returned empty result' (logged, and the block renders as nothing).
 * Blocks can be placed inside page content with Magento's `{{block id="identifier"}}` directive.
 */

import { sanitizeHtml } from '@shared/domain/sanitize-html'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { CmsPage } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'

interface CmsPageView {
  identifier: string
  title: string
  /** Sanitized HTML. */
  html: string
  metaTitle: string | null
  metaDescription: string | null
}

interface CmsBlockView {
  identifier: string
  title: string
  /** Sanitized HTML; null when the block is missing or inactive (the visitor-facing message is in `error`). */
  html: string | null
  error: string | null
}

type CmsPageResult = { kind: 'ok'; page: CmsPageView } | { kind: 'not-found'; message: string }

const BLOCK_DIRECTIVE = /\{\{\s*block\s+(?:id|block_id)\s*=\s*"([a-zA-Z0-9_-]+)"\s*\}\}/g

function log(c: Context<AppEnv>, msg: string, extra: Record<string, unknown>): void {
  console.error(JSON.stringify({ requestId: c.var.requestId, msg, ...extra }))
}

/** CMS blocks by identifier, in the given order; missing or inactive ones carry the visitor-facing message. */
export async function loadCmsBlocks(c: Context<AppEnv>, identifiers: string[]): Promise<CmsBlockView[]> {
  if (identifiers.length === 0) return []
  let found: Awaited<ReturnType<ReturnType<typeof getCommerce>['getCmsBlocks']>> = []
  try {
    found = await getCommerce(c).getCmsBlocks(identifiers)
  } catch (err) {
    markDegraded(c)
    log(c, 'cms blocks failed', { err: String(err) })
  }
  return identifiers.map((identifier) => {
    const block = found.find((b) => b.identifier === identifier && b.is_active !== false)
    if (!block) {
      log(c, PAGE_TEXT.cmsBlockQueryEmpty, { identifier })
      return { identifier, title: '', html: null, error: PAGE_TEXT.cmsBlockQueryEmpty }
    }
    return { identifier, title: block.title, html: sanitizeHtml(block.content), error: null }
  })
}

/** Replaces `{{block id="x"}}` directives with the blocks' HTML (raw content is sanitized after). */
async function expandBlocks(c: Context<AppEnv>, content: string): Promise<string> {
  const ids = [...new Set([...content.matchAll(BLOCK_DIRECTIVE)].map((m) => m[1] as string))]
  if (ids.length === 0) return content
  const blocks = await loadCmsBlocks(c, ids)
  return content.replace(
    BLOCK_DIRECTIVE,
    (_, id: string) => blocks.find((b) => b.identifier === id)?.html ?? '',
  )
}

function toView(page: CmsPage, html: string): CmsPageView {
  return {
    identifier: page.identifier,
    title: page.title,
    html,
    metaTitle: page.meta_title ?? null,
    metaDescription: page.meta_description ?? null,
  }
}

/** A CMS page by identifier (active only), its HTML sanitized and block directives expanded. */
export async function loadCmsPage(c: Context<AppEnv>, identifier: string): Promise<CmsPageResult> {
  const page = await getCommerce(c).getCmsPage(identifier)
  if (!page || page.is_active === false) {
    log(c, PAGE_TEXT.cmsQueryEmpty, { identifier })
    return { kind: 'not-found', message: PAGE_TEXT.cmsQueryEmpty }
  }
  // Sanitize the whole page after expansion: block HTML is already clean, page HTML is not.
  const html = sanitizeHtml(await expandBlocks(c, page.content))
  return { kind: 'ok', page: toView(page, html) }
}
