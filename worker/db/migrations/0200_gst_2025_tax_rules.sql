-- The demo shop's tax rules as India's GST stands since 22 September 2025 (replacing the flat 12 %
-- the demo seeded before): jewellery (HSN 71) 3 %; bags, stationery and other accessories
-- (HSN 42, 48, 49, 96) 18 %; apparel and made-ups (HSN 61-63, and goods no rule above names) 5 % for
-- a piece sold for at most 2,500 before GST, 18 % above; UK VAT 20 % on all of them; gift cards no
-- tax. Applied only where the old demo rules are still in place (a shop with rules of its own keeps
-- them). Products seeded before this migration carry no HSN code and are taxed by the apparel rule
-- until the demo catalogue is seeded again (`npm run seed`), which writes the codes.
INSERT OR REPLACE INTO tax_rules (id, code, doc)
  SELECT 4, 'Apparel and made-ups (HSN 61-63)', '{"id":4,"code":"Apparel and made-ups (HSN 61-63)","priority":0,"product_tax_class_ids":[2],"customer_tax_class_ids":[3],"rates":[{"rate":5,"code":"IN-GST-5","tax_country_id":"IN","region_name":"*","tax_region_id":0,"max_value":2500},{"rate":18,"code":"IN-GST-18","tax_country_id":"IN","region_name":"*","tax_region_id":0},{"rate":20,"code":"GB-VAT-20","tax_country_id":"GB","region_name":"*","tax_region_id":0}]}'
  WHERE EXISTS (SELECT 1 FROM tax_rules WHERE id = 1 AND code = 'Apparel and accessories');
INSERT OR REPLACE INTO tax_rules (id, code, doc)
  SELECT 3, 'Bags, stationery and other accessories (HSN 42, 48, 49, 96)', '{"id":3,"code":"Bags, stationery and other accessories (HSN 42, 48, 49, 96)","priority":0,"product_tax_class_ids":[2],"customer_tax_class_ids":[3],"hsn_prefixes":["42","48","49","96"],"rates":[{"rate":18,"code":"IN-GST-18","tax_country_id":"IN","region_name":"*","tax_region_id":0},{"rate":20,"code":"GB-VAT-20","tax_country_id":"GB","region_name":"*","tax_region_id":0}]}'
  WHERE EXISTS (SELECT 1 FROM tax_rules WHERE id = 1 AND code = 'Apparel and accessories');
INSERT OR REPLACE INTO tax_rules (id, code, doc)
  SELECT 2, 'Gift cards and digital goods', '{"id":2,"code":"Gift cards and digital goods","priority":0,"product_tax_class_ids":[5],"customer_tax_class_ids":[3],"rates":[{"rate":0,"code":"IN-GST-0","tax_country_id":"IN","region_name":"*","tax_region_id":0}]}'
  WHERE EXISTS (SELECT 1 FROM tax_rules WHERE id = 1 AND code = 'Apparel and accessories');
INSERT OR REPLACE INTO tax_rules (id, code, doc)
  SELECT 1, 'Jewellery (HSN 71)', '{"id":1,"code":"Jewellery (HSN 71)","priority":0,"product_tax_class_ids":[2],"customer_tax_class_ids":[3],"hsn_prefixes":["71"],"rates":[{"rate":3,"code":"IN-GST-3","tax_country_id":"IN","region_name":"*","tax_region_id":0},{"rate":20,"code":"GB-VAT-20","tax_country_id":"GB","region_name":"*","tax_region_id":0}]}'
  WHERE EXISTS (SELECT 1 FROM tax_rules WHERE id = 1 AND code = 'Apparel and accessories');
