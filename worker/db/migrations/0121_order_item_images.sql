-- The picture of each order line as the shopper bought it (the variant's image, else the
-- product's), kept at placement so an order keeps showing it after the catalogue changes. NULL on
-- rows written before this column existed: readers fall back to the product's current image.
ALTER TABLE order_items ADD COLUMN image TEXT;
