-- Fare conditions frozen onto orders booked before freezing existed (issue 9, spec 4.7 SHPOR1
-- rule 1; docs/servicing.md). New orders get them at booking (packages/orders/src/conditions).
-- An order is frozen here from its booked brands when every direction's brand has a policy that
-- can be read: the conditions, baggage allowances and change-fee bands below are those brands'
-- as published when this migration was written (test/servicing/freeze-migration.test.ts checks
-- them against the code). An order with a brand whose policy cannot be read (COMFORT's last
-- publish is truncated) or with no journey is left unfrozen: it falls back to the current policy,
-- and every answer that uses its conditions carries the fare_conditions_current_policy warning.
-- The order is the order actor's journal: its `created` event and, where one was written, its
-- snapshot are given the frozen conditions; no other event carries the order.

CREATE TEMP TABLE freeze_brand (code TEXT PRIMARY KEY, conditions TEXT NOT NULL);
INSERT INTO freeze_brand (code, conditions) VALUES
  ('SAVER', '{"changeable":false,"refundable":false,"cancellable":false,"renameable":false,"source":"brand"}'),
  ('LIGHT', '{"changeable":false,"refundable":false,"cancellable":true,"renameable":false,"source":"brand","allowances":[{"kind":"CarryOn","pieces":1,"kgPerPiece":8,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":0,"kgPerPiece":0,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":1,"kgPerPiece":10,"paxTypes":["INF"]}]}'),
  ('CLASSIC', '{"changeable":true,"refundable":false,"cancellable":true,"renameable":false,"source":"brand","allowances":[{"kind":"CarryOn","pieces":1,"kgPerPiece":8,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":1,"kgPerPiece":23,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":1,"kgPerPiece":10,"paxTypes":["INF"]}]}'),
  ('FLEX', '{"changeable":true,"refundable":true,"cancellable":true,"renameable":true,"source":"brand","allowances":[{"kind":"CarryOn","pieces":1,"kgPerPiece":10,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":2,"kgPerPiece":23,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":1,"kgPerPiece":10,"paxTypes":["INF"]}]}'),
  ('BUSINESS', '{"changeable":true,"refundable":true,"cancellable":true,"renameable":false,"source":"brand","allowances":[{"kind":"CarryOn","pieces":2,"kgPerPiece":8,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":2,"kgPerPiece":32,"paxTypes":["ADT","CHD"]},{"kind":"Checked","pieces":1,"kgPerPiece":10,"paxTypes":["INF"]}]}');

-- One direction per journey, in journey order; only orders whose every brand is known here.
UPDATE actor_journal
SET payload = json_set(payload, '$.order.fareConditions', json_object(
  'frozenBy', 'migration',
  -- json(): a subquery's value reaches json_object as text, which it would quote as a string.
  'directions', json((
    SELECT json_group_array(json(d)) FROM (
      SELECT json_patch(json_object('paxJourneyId', json_extract(j.value, '$.paxJourneyId'), 'brandCode', json_extract(j.value, '$.brandCode')), b.conditions) AS d
      FROM json_each(actor_journal.payload, '$.order.journeys') AS j
      JOIN freeze_brand AS b ON b.code = json_extract(j.value, '$.brandCode')
      ORDER BY j.key
    )
  )),
  'changeFeeBands', json('[{"id":"CHG-72H","fromHours":72,"fee":25},{"id":"CHG-24H","fromHours":24,"fee":50},{"id":"CHG-0H","fromHours":0,"fee":75}]')
))
WHERE kind = 'orders.order'
  AND json_extract(payload, '$.type') = 'created'
  AND json_type(payload, '$.order.fareConditions') IS NULL
  AND json_array_length(payload, '$.order.journeys') > 0
  AND NOT EXISTS (
    SELECT 1 FROM json_each(actor_journal.payload, '$.order.journeys') AS j
    WHERE json_extract(j.value, '$.brandCode') IS NULL
       OR json_extract(j.value, '$.brandCode') NOT IN (SELECT code FROM freeze_brand)
  );

-- A snapshot holds the order as of its seq: it takes the conditions its created event now has.
UPDATE actor_snapshots
SET state = json_set(state, '$.fareConditions', json((
  SELECT json_extract(e.payload, '$.order.fareConditions') FROM actor_journal AS e
  WHERE e.kind = actor_snapshots.kind AND e.key = actor_snapshots.key AND e.seq = 1
)))
WHERE kind = 'orders.order'
  AND json_type(state) = 'object'
  AND json_type(state, '$.fareConditions') IS NULL
  AND EXISTS (
    SELECT 1 FROM actor_journal AS e
    WHERE e.kind = actor_snapshots.kind AND e.key = actor_snapshots.key AND e.seq = 1
      AND json_type(e.payload, '$.order.fareConditions') = 'object'
  );

DROP TABLE freeze_brand;
