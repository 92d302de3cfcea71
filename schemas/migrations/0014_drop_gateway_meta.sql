-- gateway_meta was created by 0001_init and never read or written by any code; the test that
-- keeps the migrations and the drizzle tables column for column equal (test/store) found it.
DROP TABLE IF EXISTS gateway_meta;
