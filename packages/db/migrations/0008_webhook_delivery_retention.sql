-- The workers' sweep deletes settled deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS on every pass: this finds the
-- oldest settled ones without reading the pending ones or the whole table.
CREATE INDEX "webhook_deliveries_settled_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE "status" <> 'pending';
