-- Catalogue tables of the embedded backend (read through worker/catalog). Every entity keeps its full
-- vue-storefront-api document as JSON in `doc` (the source of truth returned to clients); the other
-- columns are copies of fields of that document, indexed for lookups, filters and sorting.
-- Live stock lives ONLY in `inventory`: every read path merges it into the docs it returns.

-- Products. One row per catalogue product (configurable parents, simple,
-- virtual, downloadable, bundle, grouped). Configurable children live inside the parent's doc
-- (`configurable_children`) and have their own `inventory` rows.
CREATE TABLE IF NOT EXISTS products (
  id INTEGER PRIMARY KEY,             -- product entity id (doc.id)
  sku TEXT NOT NULL UNIQUE,           -- doc.sku (parent sku for configurables)
  type_id TEXT NOT NULL,              -- simple|configurable|grouped|bundle|virtual|downloadable
  name TEXT NOT NULL,
  status INTEGER NOT NULL DEFAULT 1,  -- 1 enabled, 2 disabled
  visibility INTEGER NOT NULL DEFAULT 4, -- 1 not visible individually, 2 catalog, 3 search, 4 both
  price REAL NOT NULL DEFAULT 0,      -- base price (INR, excl. tax)
  final_price REAL,                   -- price after a special price valid at generation/import time
  created_at TEXT NOT NULL,           -- ISO-ish 'YYYY-MM-DD HH:MM:SS'
  updated_at TEXT NOT NULL,
  url_path TEXT NOT NULL,             -- doc.url_path, e.g. 'sarees/ruby-silk-saree-1001' (no leading slash)
  slug TEXT NOT NULL,
  doc TEXT NOT NULL                   -- full product JSON document
);
CREATE INDEX IF NOT EXISTS products_url_path ON products(url_path);
CREATE INDEX IF NOT EXISTS products_slug ON products(slug);
CREATE INDEX IF NOT EXISTS products_status_vis ON products(status, visibility);

-- Live stock: one row per SELLABLE sku (simple-like products and every configurable child).
-- Orders decrement atomically: UPDATE inventory SET qty = qty - ? WHERE sku = ? AND qty >= ?
CREATE TABLE IF NOT EXISTS inventory (
  sku TEXT PRIMARY KEY,               -- sellable sku (child sku for configurable variants)
  product_id INTEGER NOT NULL,        -- id of the sellable item (child id, or product id)
  parent_sku TEXT,                    -- parent configurable sku, NULL for standalone products
  qty INTEGER NOT NULL CHECK (qty >= 0),
  is_in_stock INTEGER NOT NULL        -- 0/1 (a manual out-of-stock flag; in stock = is_in_stock AND qty > 0)
);
CREATE INDEX IF NOT EXISTS inventory_parent ON inventory(parent_sku);

-- Categories (tree under root id 2 'Default Category'); children_data is rebuilt from parent_id.
CREATE TABLE IF NOT EXISTS categories (
  id INTEGER PRIMARY KEY,
  parent_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  url_path TEXT NOT NULL,             -- no leading slash
  level INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  include_in_menu INTEGER NOT NULL DEFAULT 1,
  doc TEXT NOT NULL                   -- category JSON without children_data
);
CREATE INDEX IF NOT EXISTS categories_parent ON categories(parent_id, position);
CREATE INDEX IF NOT EXISTS categories_slug ON categories(slug);
CREATE INDEX IF NOT EXISTS categories_url_path ON categories(url_path);

CREATE TABLE IF NOT EXISTS attributes (
  attribute_id INTEGER PRIMARY KEY,
  attribute_code TEXT NOT NULL UNIQUE,
  doc TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS tax_rules (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL,
  doc TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS cms_pages (
  id INTEGER PRIMARY KEY,
  identifier TEXT NOT NULL,
  store_id INTEGER NOT NULL DEFAULT 0, -- 0 = all store views
  is_active INTEGER NOT NULL DEFAULT 1,
  doc TEXT NOT NULL,
  UNIQUE (identifier, store_id)
);

CREATE TABLE IF NOT EXISTS cms_blocks (
  id INTEGER PRIMARY KEY,
  identifier TEXT NOT NULL,
  store_id INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  doc TEXT NOT NULL,
  UNIQUE (identifier, store_id)
);

-- Store locator.
CREATE TABLE IF NOT EXISTS stores (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL DEFAULT 0,
  doc TEXT NOT NULL
);

-- Product reviews: review_status 1 approved, 2 pending, 3 not approved. Only approved are read.
CREATE TABLE IF NOT EXISTS reviews (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL,
  review_status INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_product ON reviews(product_id, review_status, created_at);

-- Singleton-ish JSON documents keyed by name: 'home' (home data: sections, banners, popups),
-- 'common-config', 'otw' (on-the-way data) ... one row per store view (0 = default).
CREATE TABLE IF NOT EXISTS content_docs (
  kind TEXT NOT NULL,
  store_id INTEGER NOT NULL DEFAULT 0,
  doc TEXT NOT NULL,
  PRIMARY KEY (kind, store_id)
);

-- Size guides (POST /api/product/size-guide-collection), keyed by a code (e.g. garment type).
CREATE TABLE IF NOT EXISTS size_guides (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  doc TEXT NOT NULL
);

-- Search-page content (POST /api/product/search-content), keyed by search term ('' = default).
CREATE TABLE IF NOT EXISTS search_content (
  term TEXT PRIMARY KEY,
  doc TEXT NOT NULL
);
