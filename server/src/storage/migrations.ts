import type { Database } from './database'

/**
 * Versioned migrations, applied in order, each in its own transaction, once. Replicas starting
 * together on one PostgreSQL server take turns through an advisory lock. Never edit a released
 * migration: add the next one. Each is frozen text, never built from today's code (a function
 * called here would change a released migration when the function changes), and
 * migrations.test.ts pins each one's digest.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'shops, orders, returns',
    sql: `
      CREATE TABLE shops (
        id text PRIMARY KEY,
        currency_code text NOT NULL,
        settings jsonb NOT NULL,
        config jsonb NOT NULL,
        config_variants jsonb NOT NULL DEFAULT '{}',
        return_reasons jsonb NOT NULL,
        return_reason_variants jsonb NOT NULL DEFAULT '{}',
        return_address jsonb NOT NULL,
        catalogue jsonb NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE orders (
        id text PRIMARY KEY,
        shop_id text NOT NULL REFERENCES shops (id) ON DELETE CASCADE,
        name text NOT NULL,
        name_key text NOT NULL,
        email_key text NOT NULL,
        processed_at timestamptz NOT NULL,
        fulfilled_at timestamptz,
        discount text NOT NULL DEFAULT '0',
        line_items jsonb NOT NULL,
        UNIQUE (shop_id, name_key)
      );
      CREATE TABLE returns (
        id text PRIMARY KEY,
        order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        number integer NOT NULL,
        name text NOT NULL,
        idempotency_key text,
        request_hash text,
        -- the return as answered to the shopper; null for returns imported with an order
        return_order jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (order_id, number),
        UNIQUE (order_id, idempotency_key)
      );
      CREATE TABLE return_items (
        return_id text NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
        order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        line_item_id text NOT NULL,
        quantity integer NOT NULL CHECK (quantity > 0),
        exchange_variant_id text,
        PRIMARY KEY (return_id, line_item_id)
      );
      CREATE INDEX return_items_by_order ON return_items (order_id);
      CREATE TABLE secrets (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'units returned per line, kept on the order',
    // Verify reads an order on every attempt; keeping the returned units beside it saves the
    // aggregate over return_items on that hot path. insertReturn keeps it in step.
    sql: `
      ALTER TABLE orders ADD COLUMN returned_units jsonb NOT NULL DEFAULT '{}';
      UPDATE orders SET returned_units = COALESCE((
        SELECT jsonb_object_agg(line_item_id, units) FROM (
          SELECT line_item_id, SUM(quantity)::int AS units FROM return_items WHERE order_id = orders.id GROUP BY line_item_id) AS per_line), '{}');
    `,
  },
  {
    version: 3,
    name: 'photos uploaded as evidence for a return reason',
    // Bound to the order (gone with it on a re-import); return_id is set when a submitted return
    // takes the photo, and never again: a photo belongs to one item of one return.
    sql: `
      CREATE TABLE photos (
        id text PRIMARY KEY,
        order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        content_type text NOT NULL,
        size integer NOT NULL CHECK (size > 0),
        bytes bytea NOT NULL,
        return_id text REFERENCES returns (id) ON DELETE CASCADE,
        line_item_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX photos_by_order ON photos (order_id, return_id);
    `,
  },
  {
    version: 4,
    name: 'state changes of returned items',
    // An item is `requested` from its return's creation; each later state it reaches is one row,
    // with when. Its state is the furthest row, so the status page shows when each step happened.
    // A kept item (refunded without being sent back) would be one `refunded` row.
    sql: `
      CREATE TABLE return_item_events (
        return_id text NOT NULL,
        line_item_id text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_transit', 'received', 'refunded')),
        at timestamptz NOT NULL,
        PRIMARY KEY (return_id, line_item_id, state),
        FOREIGN KEY (return_id, line_item_id) REFERENCES return_items (return_id, line_item_id) ON DELETE CASCADE
      );
    `,
  },
  {
    version: 5,
    name: 'rate-limit counters shared by replicas',
    // On PostgreSQL (DATABASE_URL) every replica counts in this table, so two replicas do not give
    // an attacker twice the guesses (docs/settings.md). PGlite has one process and counts in memory.
    sql: `
      CREATE TABLE rate_limits (
        key text PRIMARY KEY,
        hits integer NOT NULL,
        resets_at timestamptz NOT NULL
      );
      CREATE INDEX rate_limits_by_reset ON rate_limits (resets_at);
    `,
  },
  {
    version: 6,
    name: 'photo bytes may live outside the row',
    // On PGlite the bytes are a file under DATA_DIR/photos and the row keeps the rest: writing or
    // reading megabytes through the embedded database holds up every other request (see
    // docs/decisions/0037-photo-storage.md). Rows written before keep their bytes and are read from the row.
    sql: `ALTER TABLE photos ALTER COLUMN bytes DROP NOT NULL;`,
  },
  {
    version: 7,
    name: 'orders.shipping_address',
    // Where the order went: the label's sender (docs/shop-file.md). Orders imported before have none.
    sql: `ALTER TABLE orders ADD COLUMN shipping_address jsonb;`,
  },
  {
    version: 8,
    name: 'staff, their sessions and sign-in failures; staff actions; returns by shop',
    // The back office (docs/back-office.md). A staff member's shops are ids, not references: a
    // shop's re-import deletes and re-creates its row, and its staff keep their access.
    // Sessions are kept by the SHA-256 of the cookie's value, so a copy of the table signs no one in.
    // Sign-in failures are counted per e-mail as typed, known or not: an unknown e-mail is locked
    // like a known one, so the lock tells nothing about who has an account.
    // returns.shop_id and returns.state let the console list a shop's returns from one index; the
    // state is derived data, filled in here by the rule as it was when this migration was released
    // (a frozen copy of returnStateSql's text then) and kept by recordLineState since.
    sql: `
      CREATE TABLE staff (
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE staff_shops (
        staff_id text NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        PRIMARY KEY (staff_id, shop_id)
      );
      CREATE TABLE staff_sessions (
        id_hash text PRIMARY KEY,
        staff_id text NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      );
      CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_id);
      CREATE TABLE sign_in_failures (
        email text PRIMARY KEY,
        failures integer NOT NULL,
        first_at timestamptz NOT NULL,
        locked_until timestamptz
      );
      CREATE TABLE return_actions (
        return_id text NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        state text NOT NULL,
        line_item_ids jsonb NOT NULL,
        note text
      );
      CREATE INDEX return_actions_by_return ON return_actions (return_id, at);
      ALTER TABLE returns ADD COLUMN shop_id text;
      UPDATE returns SET shop_id = (SELECT shop_id FROM orders WHERE orders.id = returns.order_id);
      ALTER TABLE returns ALTER COLUMN shop_id SET NOT NULL;
      ALTER TABLE returns ADD COLUMN state text NOT NULL DEFAULT 'requested';
      UPDATE returns SET state = (SELECT (ARRAY['requested', 'in_transit', 'received', 'refunded'])[1 + COALESCE(MIN(GREATEST(
      COALESCE((SELECT MAX(CASE e.state WHEN 'in_transit' THEN 1 WHEN 'received' THEN 2 WHEN 'refunded' THEN 3 END)
                  FROM return_item_events e WHERE e.return_id = i.return_id AND e.line_item_id = i.line_item_id), 0),
      CASE WHEN EXISTS (SELECT 1 FROM returns r, jsonb_array_elements(COALESCE(r.return_order -> 'items', '[]')) AS item
                         WHERE r.id = i.return_id AND item ->> 'line_item_id' = i.line_item_id AND item ->> 'keep' = 'true')
           THEN 2 ELSE 0 END)), 0)]
    FROM return_items i WHERE i.return_id = returns.id);
      CREATE INDEX returns_by_shop ON returns (shop_id, created_at DESC, id DESC);
      CREATE INDEX returns_by_shop_state ON returns (shop_id, state, created_at DESC, id DESC);
      CREATE INDEX orders_by_email ON orders (shop_id, email_key);
    `,
  },
  {
    version: 9,
    name: 'support references',
    // A shopper's support code kept for the shop's staff under a short reference, for 7 days
    // (docs/support.md). The code holds a read-only token and masked e-mails only.
    sql: `
      CREATE TABLE support_references (
        reference text PRIMARY KEY,
        shop_id text NOT NULL,
        code text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX support_references_by_expiry ON support_references (expires_at);
    `,
  },
  {
    version: 10,
    name: 'events out: the outbox, its attempts, webhook endpoints',
    // docs/events.md. Each change that matters writes its e-mails and webhooks here in its own
    // transaction; the delivery loop takes due rows with FOR UPDATE SKIP LOCKED under a lease.
    // The language and portal address the shopper submitted from word and link later e-mails.
    sql: `
      ALTER TABLE returns ADD COLUMN language text;
      ALTER TABLE returns ADD COLUMN portal_origin text;
      ALTER TABLE shops ADD COLUMN email jsonb;
      CREATE TABLE webhook_endpoints (
        id text PRIMARY KEY,
        shop_id text NOT NULL,
        url text NOT NULL,
        secret text NOT NULL,
        events jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        failing_since timestamptz,
        disabled_at timestamptz
      );
      CREATE INDEX webhook_endpoints_by_shop ON webhook_endpoints (shop_id, created_at);
      CREATE TABLE outbox (
        seq bigserial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        shop_id text NOT NULL,
        return_id text,
        event text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('email', 'webhook')),
        -- what is delivered in order: the endpoint's id, or 'email'
        target text NOT NULL,
        recipient text,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'kept', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        due_at timestamptz NOT NULL,
        locked_until timestamptz,
        delivered_at timestamptz,
        last_error text,
        message jsonb
      );
      CREATE INDEX outbox_due ON outbox (due_at, seq) WHERE state = 'pending';
      CREATE INDEX outbox_by_return ON outbox (return_id, target, seq);
      CREATE INDEX outbox_by_shop ON outbox (shop_id, channel, seq DESC);
      CREATE INDEX outbox_by_target ON outbox (target, seq DESC);
      CREATE TABLE delivery_attempts (
        outbox_seq bigint NOT NULL REFERENCES outbox (seq) ON DELETE CASCADE,
        attempt integer NOT NULL,
        at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        ok boolean NOT NULL,
        status_code integer,
        error text,
        PRIMARY KEY (outbox_seq, attempt)
      );
    `,
  },
  {
    version: 11,
    name: 'policy, review, inspection',
    // docs/lifecycle.md. A return the policy flags waits for review; a received item's inspection
    // says what it was found to be and what became of it; staff decisions are actions of their
    // own kind. The drop-off code is kept so a scan finds its return by index; the returns made
    // before get theirs here, computed as the label computes it.
    sql: `
      ALTER TABLE shops ADD COLUMN policy jsonb NOT NULL DEFAULT '{}';
      ALTER TABLE returns ADD COLUMN review text CHECK (review IN ('pending', 'approved', 'rejected'));
      ALTER TABLE returns ADD COLUMN review_flags jsonb;
      ALTER TABLE returns ADD COLUMN review_answer_by text;
      ALTER TABLE returns ADD COLUMN review_reason text;
      ALTER TABLE returns ADD COLUMN reviewed_at timestamptz;
      ALTER TABLE returns ADD COLUMN reviewed_by text;
      ALTER TABLE returns ADD COLUMN drop_off_code text;
      CREATE INDEX returns_review_queue ON returns (shop_id, created_at, id) WHERE review = 'pending';
      UPDATE returns SET drop_off_code = ('RB-' || (
    SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((bits >> (5 * (7 - digit))) & 31)::int + 1, 1), '' ORDER BY digit)
      FROM generate_series(0, 7) AS digit,
           (SELECT (get_byte(d, 0)::bigint << 32) | (get_byte(d, 1)::bigint << 24) | (get_byte(d, 2)::bigint << 16)
                   | (get_byte(d, 3)::bigint << 8) | get_byte(d, 4)::bigint AS bits
              FROM (SELECT sha256(convert_to(lower(returns.id), 'UTF8')) AS d) AS digest) AS code));
      CREATE INDEX returns_by_drop_off_code ON returns (drop_off_code);
      ALTER TABLE return_actions ALTER COLUMN state DROP NOT NULL;
      ALTER TABLE return_actions ADD COLUMN kind text NOT NULL DEFAULT 'state';
      ALTER TABLE photos ADD COLUMN source text NOT NULL DEFAULT 'shopper';
      CREATE TABLE return_inspections (
        return_id text NOT NULL REFERENCES returns (id) ON DELETE CASCADE,
        line_item_id text NOT NULL,
        condition text NOT NULL,
        disposition text NOT NULL,
        note text,
        photo_ids jsonb NOT NULL DEFAULT '[]',
        percent integer NOT NULL DEFAULT 0,
        deduction_minor bigint NOT NULL DEFAULT 0,
        restocked_variant_id text,
        inspected_at timestamptz NOT NULL,
        inspected_by text NOT NULL,
        PRIMARY KEY (return_id, line_item_id)
      );
    `,
  },
  {
    version: 12,
    name: 'store credit codes; item steps by time',
    // Store credit reaches the shopper as a code to spend (decision 0064), issued once with the
    // change that refunds the return, kept for the status page and later e-mails. Insights find the
    // returns whose items moved in a period by the time of the move (decision 0061).
    sql: `
      CREATE TABLE store_credits (
        return_id text PRIMARY KEY REFERENCES returns (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        code text NOT NULL,
        amount text NOT NULL,
        currency_code text NOT NULL,
        issued_at timestamptz NOT NULL,
        UNIQUE (shop_id, code)
      );
      CREATE INDEX return_item_events_by_time ON return_item_events (at);
    `,
  },
  {
    version: 13,
    name: 'api keys',
    // The Orders API's keys (decision 0074): each for one shop, kept as the SHA-256 of the token
    // and a few of its first characters to tell keys apart, never the token. Not tied to the
    // shops table by a foreign key: deleting a shop deletes them (storage/shops.ts).
    sql: `
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        shop_id text NOT NULL,
        label text NOT NULL,
        token_sha256 text NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_by_shop ON api_keys (shop_id, created_at);
    `,
  },
  {
    version: 14,
    name: 'store connections',
    // The shop's commerce engine (decision 0075): one a shop, its secret key sealed with
    // AES-256-GCM under a key derived from the server secret (storage/sealed.ts), never in clear.
    // Not tied to the shops table by a foreign key: deleting a shop deletes it (storage/shops.ts).
    sql: `
      CREATE TABLE store_connections (
        shop_id text PRIMARY KEY,
        engine text NOT NULL CHECK (engine IN ('medusa')),
        url text NOT NULL,
        api_key_sealed text NOT NULL,
        extras jsonb NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL,
        tested_at timestamptz,
        test_ok boolean,
        test_checks jsonb
      );
    `,
  },
  {
    version: 15,
    name: 'engine actions in the outbox',
    // The actions carried out in a shop's commerce engine (docs/commerce.md) go through the
    // outbox as e-mails and webhooks do; `reference` keeps the id of what an action made there.
    // An order read from the engine keeps the engine's id for it.
    sql: `
      ALTER TABLE outbox DROP CONSTRAINT outbox_channel_check;
      ALTER TABLE outbox ADD CONSTRAINT outbox_channel_check CHECK (channel IN ('email', 'webhook', 'engine'));
      ALTER TABLE outbox ADD COLUMN reference text;
      ALTER TABLE orders ADD COLUMN engine_order_id text;
    `,
  },
  {
    version: 16,
    name: 'the audit log',
    // Who changed what (docs/back-office.md, "The audit log"): one row per change by staff or an
    // API key, and per sign-in, sign-out and failed sign-in. Append-only: no route updates or
    // deletes a row, and the trigger refuses it to anyone who tries. Not tied to the shops table:
    // a shop's re-import re-creates its row and keeps its history.
    sql: `
      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        shop_id text NOT NULL,
        at timestamptz NOT NULL,
        actor_kind text NOT NULL CHECK (actor_kind IN ('staff', 'api_key', 'system')),
        actor_id text,
        actor_label text NOT NULL,
        address text,
        kind text NOT NULL,
        subject text,
        detail jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_log_by_shop ON audit_log (shop_id, at DESC, id DESC);
      CREATE INDEX audit_log_by_actor ON audit_log (shop_id, actor_label, at DESC, id DESC);
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit log is append-only';
      END
      $$;
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
    `,
  },
  {
    version: 17,
    name: 'staff roles, invites and the agents review limit',
    // Roles (docs/back-office.md, "Roles"; decision 0081): a role per staff member and shop, every
    // existing one an owner, so nothing they did before is refused. An invite's token is kept only
    // as its SHA-256. The review limit is keyed by shop id, not a reference: a shop's re-import
    // re-creates its row. No row (or a null amount): no limit set, agents decide any amount.
    sql: `
      ALTER TABLE staff_shops ADD COLUMN role text NOT NULL DEFAULT 'owner'
        CHECK (role IN ('owner', 'admin', 'agent', 'warehouse'));
      ALTER TABLE staff ADD COLUMN last_sign_in_at timestamptz;
      CREATE TABLE staff_invites (
        token_hash text PRIMARY KEY,
        shop_id text NOT NULL,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'agent', 'warehouse')),
        kind text NOT NULL CHECK (kind IN ('invite', 'reset')),
        invited_by text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX staff_invites_by_shop ON staff_invites (shop_id, email);
      CREATE TABLE shop_review_limits (
        shop_id text PRIMARY KEY,
        agent_limit_minor bigint CHECK (agent_limit_minor >= 0),
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL
      );
    `,
  },
  {
    version: 18,
    name: 'returns cancelled or closed by staff',
    // A return staff cancelled (before anything was received) or closed with a reason goes no
    // further (decision 0083): how it ended, why, when and by whom. returns.state reads `ended`
    // first (storage/returnStates.ts returnStateSql), so the list's state filter finds them.
    sql: `
      ALTER TABLE returns ADD COLUMN ended text CHECK (ended IN ('cancelled', 'closed'));
      ALTER TABLE returns ADD COLUMN ended_reason text;
      ALTER TABLE returns ADD COLUMN ended_at timestamptz;
      ALTER TABLE returns ADD COLUMN ended_by text;
    `,
  },
  {
    version: 19,
    name: 'the returns list finds by part of a word',
    // The console's search (docs/back-office.md, "Finding returns"; decision 0084): each return
    // keeps the text its search looks in (its number, its order's, the drop-off code, the
    // shopper's e-mail and name, the titles of the items it returns), folded (lower case, accents
    // off), under a trigram index: a part of any of them is found without reading every return.
    // Triggers keep it as a return, its items or its order are written, whichever path writes them.
    // The extensions are created in public when missing (trusted: a database owner may), and used
    // qualified with the schema they are in, wherever that is: a server may have them elsewhere.
    // Returns sort by amount from an index on the amount as submitted (before deductions).
    sql: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
      CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;
      ALTER TABLE returns ADD COLUMN search_text text NOT NULL DEFAULT '';
      DO $migration$
      DECLARE
        trgm text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
        plain text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent');
      BEGIN
        EXECUTE format($f$
          CREATE FUNCTION search_folded(value text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
            AS $b$SELECT lower(%I.unaccent(%L::regdictionary, value))$b$
        $f$, plain, plain || '.unaccent');
        EXECUTE format('CREATE INDEX returns_search ON returns USING gin (search_text %I.gin_trgm_ops)', trgm);
      END
      $migration$;
      CREATE FUNCTION return_search_text(wanted text) RETURNS text LANGUAGE sql STABLE AS $$
        SELECT COALESCE(search_folded(concat_ws(' ',
                 '#' || ltrim(r.name, '#'), '#' || ltrim(o.name, '#'), r.drop_off_code, o.email_key,
                 o.shipping_address ->> 'name',
                 (SELECT string_agg(DISTINCT COALESCE(line ->> 'title', (
                           SELECT product ->> 'title' FROM shops s, jsonb_array_elements(s.catalogue) AS product
                            WHERE s.id = r.shop_id
                              AND product -> 'variants' @> jsonb_build_array(jsonb_build_object('id', line ->> 'variant_id'))
                            LIMIT 1)), ' ')
                    FROM return_items i, jsonb_array_elements(o.line_items) AS line
                   WHERE i.return_id = r.id AND line ->> 'id' = i.line_item_id))), '')
          FROM returns r JOIN orders o ON o.id = r.order_id
         WHERE r.id = wanted
      $$;
      CREATE FUNCTION returns_search_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'orders' THEN
          UPDATE returns SET search_text = return_search_text(id) WHERE order_id = NEW.id;
        ELSIF TG_TABLE_NAME = 'return_items' THEN
          UPDATE returns SET search_text = return_search_text(id)
           WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.return_id ELSE NEW.return_id END);
        ELSE
          UPDATE returns SET search_text = return_search_text(id) WHERE id = NEW.id;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER returns_search_on_return AFTER INSERT OR UPDATE OF name, order_id, drop_off_code ON returns
        FOR EACH ROW EXECUTE FUNCTION returns_search_kept();
      CREATE TRIGGER returns_search_on_item AFTER INSERT OR DELETE ON return_items
        FOR EACH ROW EXECUTE FUNCTION returns_search_kept();
      CREATE TRIGGER returns_search_on_order AFTER UPDATE OF name, email_key, shipping_address, line_items ON orders
        FOR EACH ROW EXECUTE FUNCTION returns_search_kept();
      UPDATE returns SET search_text = return_search_text(id);
      CREATE INDEX returns_by_shop_amount ON returns (shop_id, (COALESCE(CASE
        WHEN return_order ->> 'refund_method' = 'store_credit' AND jsonb_typeof(return_order -> 'store_credit_value') = 'object'
        THEN (return_order #>> '{store_credit_value,shop_money,amount}')::numeric
        ELSE (return_order #>> '{refund_value,shop_money,amount}')::numeric END, -1)), id);
    `,
  },
  {
    version: 20,
    name: 'rate-limit counters skip the write-ahead log',
    // The counters of a one-minute window (storage/rateLimits.ts) are not worth a disk flush at
    // every verify: each commit of a logged table waits for one, and verify makes two. Unlogged,
    // the rows are locked, counted and seen by every replica as before, so the limits stay exact;
    // only a crash of the database server empties the table, which starts every window afresh
    // (docs/benchmarks.md, "Verify as replicas scale").
    sql: `ALTER TABLE rate_limits SET UNLOGGED;`,
  },
  {
    version: 21,
    name: 'inspections per unit',
    // The warehouse records a condition and a disposition for each unit of a line
    // (docs/decisions/0085-inspection-per-unit.md): a row per unit, numbered from 1. The rows
    // before keep unit 0, which stands for every unit of its line in that condition.
    sql: `
      ALTER TABLE return_inspections ADD COLUMN unit integer NOT NULL DEFAULT 0;
      ALTER TABLE return_inspections DROP CONSTRAINT return_inspections_pkey;
      ALTER TABLE return_inspections ADD PRIMARY KEY (return_id, line_item_id, unit);
    `,
  },
  {
    version: 22,
    name: 'insights read daily tallies kept by triggers',
    // The console's insights (docs/back-office.md, Insights; decision 0087) read per-day, per-shop
    // tallies instead of recounting every return of the period. Each return's share of them (its
    // count, its units and their value per reason and per product on the day it was asked for, and
    // the money it moved on the day it moved: refunded, store credit, exchanged and new items sent)
    // is kept in insight_parts, worked out by return_insight_parts: the SQL twin of
    // domain/insights.ts's moneyMoves, held equal to it by server/test/insightTallies.test.ts.
    // Triggers on every table the share reads recompute it at commit (deferred: once the
    // transaction's writes are all in) and move the difference into insight_days, under a lock per
    // shop taken only then, so writers of one shop wait on each other for the commit's end alone.
    // Money is in minor units of the shop's currency (currency_digits: Intl's decimals per code).
    sql: `
      CREATE TABLE insight_days (
        shop_id text NOT NULL REFERENCES shops (id) ON DELETE CASCADE,
        day date NOT NULL,
        kind text NOT NULL,
        key text NOT NULL,
        label text NOT NULL,
        count bigint NOT NULL,
        value numeric NOT NULL,
        PRIMARY KEY (shop_id, day, kind, key, label)
      );
      CREATE TABLE insight_parts (
        return_id text NOT NULL,
        shop_id text NOT NULL,
        day date NOT NULL,
        kind text NOT NULL,
        key text NOT NULL,
        label text NOT NULL,
        count bigint NOT NULL,
        value numeric NOT NULL
      );
      CREATE INDEX insight_parts_by_return ON insight_parts (return_id);
      CREATE FUNCTION currency_digits(code text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN code IN ('BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 3
          WHEN code IN ('AFN', 'ALL', 'BIF', 'CLP', 'COP', 'DJF', 'GNF', 'HUF', 'IDR', 'IQD', 'IRR', 'ISK', 'JPY',
                        'KMF', 'KPW', 'KRW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'PYG', 'RWF', 'SLL', 'SOS', 'SYP',
                        'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF', 'YER') THEN 0
          ELSE 2 END
      $$;
      CREATE FUNCTION return_insight_parts(wanted text) RETURNS SETOF insight_parts LANGUAGE plpgsql STABLE AS $$
      DECLARE
        r record;
        scale numeric;
        amount numeric;
        method text;
        timing jsonb;
        at_once boolean := false;
        issued timestamptz;
        finished timestamptz;
        refund_at timestamptz;
        deducted numeric;
        line record;
        done timestamptz;
        lines integer := 0;
        undone integer := 0;
      BEGIN
        SELECT x.id, x.shop_id, x.created_at, x.review, x.reviewed_at, x.return_order AS answer, o.line_items,
               s.currency_code
          INTO r
          FROM returns x JOIN orders o ON o.id = x.order_id JOIN shops s ON s.id = x.shop_id
         WHERE x.id = wanted AND x.return_order IS NOT NULL;
        IF NOT FOUND THEN RETURN; END IF;
        -- Asked for: the return, and its units with their value, per reason and per product.
        RETURN NEXT ROW(r.id, r.shop_id, (r.created_at AT TIME ZONE 'UTC')::date, 'returns', '', '', 1, 0)::insight_parts;
        RETURN QUERY
          SELECT r.id, r.shop_id, (r.created_at AT TIME ZONE 'UTC')::date, k.kind, k.key, k.label,
                 SUM(u.count)::bigint, SUM(u.value)
            FROM (SELECT item ->> 'reason_id' AS reason_id, item ->> 'reason_label' AS reason_label,
                         item ->> 'title' AS title, (item ->> 'quantity')::int AS count,
                         (item ->> 'quantity')::int * COALESCE((
                           SELECT (l ->> 'price')::numeric FROM jsonb_array_elements(r.line_items) AS l
                            WHERE l ->> 'id' = item ->> 'line_item_id' LIMIT 1), 0) AS value
                    FROM jsonb_array_elements(r.answer -> 'items') AS item) u,
                 LATERAL (VALUES ('reason', COALESCE(u.reason_id, ''), COALESCE(u.reason_label, '')),
                                 ('product', COALESCE(u.title, ''), COALESCE(u.title, ''))) AS k(kind, key, label)
           GROUP BY k.kind, k.key, k.label;
        -- Moved (domain/insights.ts, moneyMoves): none while waiting for review or once rejected.
        IF r.review IS NOT DISTINCT FROM 'pending' OR r.review IS NOT DISTINCT FROM 'rejected' THEN RETURN; END IF;
        scale := 10 ^ currency_digits(r.currency_code);
        issued := CASE WHEN r.review = 'approved' AND r.reviewed_at > r.created_at THEN r.reviewed_at ELSE r.created_at END;
        amount := r.answer #>> '{breakdown,total,presentment_money,amount}';
        method := COALESCE(r.answer ->> 'refund_method', 'original_payment');
        timing := r.answer -> 'refund_timing' -> method;
        IF amount > 0 AND timing IS NOT NULL AND jsonb_typeof(timing) <> 'null' AND timing -> 'to_days' = '0'::jsonb THEN
          -- returnStatus.ts, statusRefund: issued at the submission when paid then, or when every
          -- refunded line is kept.
          at_once := timing ->> 'after' = 'submit' OR EXISTS (
              SELECT 1 FROM return_items i WHERE i.return_id = r.id AND i.exchange_variant_id IS NULL)
            AND NOT EXISTS (
              SELECT 1 FROM return_items i WHERE i.return_id = r.id AND i.exchange_variant_id IS NULL
                 AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r.answer -> 'items') AS item
                                  WHERE item ->> 'line_item_id' = i.line_item_id AND item -> 'keep' = 'true'::jsonb));
        END IF;
        FOR line IN
          SELECT i.line_item_id, i.quantity, i.exchange_variant_id IS NOT NULL AS exchanged,
                 EXISTS (SELECT 1 FROM jsonb_array_elements(r.answer -> 'items') AS item
                          WHERE item ->> 'line_item_id' = i.line_item_id AND item -> 'keep' = 'true'::jsonb) AS kept,
                 (SELECT l.v ->> 'price' FROM jsonb_array_elements(r.line_items) WITH ORDINALITY AS l(v, n)
                   WHERE l.v ->> 'id' = i.line_item_id ORDER BY l.n DESC LIMIT 1) AS price
            FROM return_items i WHERE i.return_id = r.id
        LOOP
          lines := lines + 1;
          IF at_once AND NOT line.exchanged AND line.kept THEN
            done := issued;
          ELSE
            SELECT MIN(e.at) INTO done FROM return_item_events e
             WHERE e.return_id = r.id AND e.line_item_id = line.line_item_id
               AND (e.state = 'refunded' OR (at_once AND NOT line.exchanged AND e.state = 'received'));
          END IF;
          IF done IS NULL THEN
            undone := undone + 1;
          ELSE
            finished := GREATEST(finished, done);
            IF line.exchanged THEN
              RETURN NEXT ROW(r.id, r.shop_id, (done AT TIME ZONE 'UTC')::date, 'exchanges', '', '', 0,
                              line.quantity * COALESCE(line.price::numeric, 0) * scale)::insight_parts;
            END IF;
          END IF;
        END LOOP;
        IF lines = 0 OR undone > 0 THEN finished := NULL; END IF;
        refund_at := CASE WHEN at_once THEN issued ELSE finished END;
        IF amount > 0 AND refund_at IS NOT NULL THEN
          SELECT COALESCE(SUM(deduction_minor), 0) INTO deducted FROM return_inspections
           WHERE return_id = r.id AND deduction_minor > 0;
          RETURN NEXT ROW(r.id, r.shop_id, (refund_at AT TIME ZONE 'UTC')::date,
                          CASE WHEN method = 'store_credit' THEN 'store_credit' ELSE 'refunded' END, '', '', 0,
                          GREATEST(0, amount * scale - deducted))::insight_parts;
        END IF;
        IF jsonb_typeof(r.answer -> 'new_item') = 'object' AND finished IS NOT NULL THEN
          RETURN NEXT ROW(r.id, r.shop_id, (finished AT TIME ZONE 'UTC')::date, 'upsells', '', '', 0,
                          (r.answer #>> '{new_item,price,shop_money,amount}')::numeric * scale)::insight_parts;
        END IF;
      END
      $$;
      CREATE FUNCTION insight_refresh(wanted text) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        fresh insight_parts[] := ARRAY(SELECT p FROM return_insight_parts(wanted) p
                                        ORDER BY p.shop_id, p.day, p.kind, p.key, p.label);
        kept insight_parts[] := ARRAY(SELECT p FROM insight_parts p WHERE p.return_id = wanted
                                       ORDER BY p.shop_id, p.day, p.kind, p.key, p.label);
      BEGIN
        IF fresh IS NOT DISTINCT FROM kept THEN RETURN; END IF;
        PERFORM pg_advisory_xact_lock(4127022, hashtext(shop))
           FROM (SELECT DISTINCT shop_id AS shop FROM unnest(fresh || kept)) s ORDER BY shop;
        INSERT INTO insight_days AS d (shop_id, day, kind, key, label, count, value)
        SELECT x.shop_id, x.day, x.kind, x.key, x.label, SUM(x.count), SUM(x.value)
          FROM (SELECT shop_id, day, kind, key, label, count, value FROM unnest(fresh)
                UNION ALL SELECT shop_id, day, kind, key, label, -count, -value FROM unnest(kept)) x
         WHERE EXISTS (SELECT 1 FROM shops s WHERE s.id = x.shop_id)
         GROUP BY x.shop_id, x.day, x.kind, x.key, x.label
        HAVING SUM(x.count) <> 0 OR SUM(x.value) <> 0
         ORDER BY x.shop_id, x.day, x.kind, x.key, x.label
            ON CONFLICT (shop_id, day, kind, key, label)
            DO UPDATE SET count = d.count + EXCLUDED.count, value = d.value + EXCLUDED.value;
        DELETE FROM insight_parts WHERE return_id = wanted;
        INSERT INTO insight_parts SELECT * FROM unnest(fresh);
      END
      $$;
      CREATE FUNCTION insight_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'orders' THEN
          PERFORM insight_refresh(id) FROM returns WHERE order_id = NEW.id;
        ELSIF TG_TABLE_NAME = 'shops' THEN
          PERFORM insight_refresh(id) FROM returns WHERE shop_id = NEW.id;
        ELSIF TG_TABLE_NAME = 'returns' THEN
          PERFORM insight_refresh(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        ELSE
          PERFORM insight_refresh(CASE WHEN TG_OP = 'DELETE' THEN OLD.return_id ELSE NEW.return_id END);
          IF TG_OP = 'UPDATE' AND OLD.return_id <> NEW.return_id THEN PERFORM insight_refresh(OLD.return_id); END IF;
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE CONSTRAINT TRIGGER insight_on_return
        AFTER INSERT OR DELETE OR UPDATE OF return_order, review, reviewed_at, created_at, shop_id, order_id ON returns
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION insight_kept();
      CREATE CONSTRAINT TRIGGER insight_on_item AFTER INSERT OR UPDATE OR DELETE ON return_items
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION insight_kept();
      CREATE CONSTRAINT TRIGGER insight_on_event AFTER INSERT OR UPDATE OR DELETE ON return_item_events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION insight_kept();
      CREATE CONSTRAINT TRIGGER insight_on_inspection AFTER INSERT OR UPDATE OR DELETE ON return_inspections
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION insight_kept();
      CREATE CONSTRAINT TRIGGER insight_on_order AFTER UPDATE OF line_items ON orders
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION insight_kept();
      CREATE CONSTRAINT TRIGGER insight_on_shop AFTER UPDATE OF currency_code ON shops
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION insight_kept();
      INSERT INTO insight_parts SELECT p.* FROM returns r, return_insight_parts(r.id) p;
      INSERT INTO insight_days (shop_id, day, kind, key, label, count, value)
      SELECT shop_id, day, kind, key, label, SUM(count), SUM(value) FROM insight_parts
       GROUP BY shop_id, day, kind, key, label;
    `,
  },
  {
    version: 23,
    name: 'the audit log by kind',
    // The audit log's page filtered by kind (docs/back-office.md, "The audit log"): readAudit asks
    // each kind of a group, and each of its prefixes as a byte range (`policy.` to `policy/`), of
    // this index; text_pattern_ops orders by bytes whatever the database's collation. A group
    // rare among the shop's entries (settings, staff) is read from its own entries instead of a
    // walk of the whole log. Building it takes about 10 s per 2 million entries, during which
    // the log takes no writes.
    sql: `CREATE INDEX audit_log_by_kind ON audit_log (shop_id, kind text_pattern_ops, at DESC, id DESC);`,
  },
  {
    version: 24,
    name: 'the returns counted by view',
    // The returns list's tabs count each view (docs/decisions/0089-view-counts.md), and a view is a
    // condition on a return's state and review alone: counted from this index, grouped by the
    // two, no row of the table is read (an index-only scan), where a count over the rows read
    // every row of the shop.
    sql: `CREATE INDEX returns_by_shop_view ON returns (shop_id, state, review);`,
  },
  {
    version: 25,
    name: 'the search knows its common trigrams',
    // The search's trigram index reads every entry of each trigram a word holds, and a trigram
    // found in nearly every return (`sho` of a million `shopper…@` addresses) costs milliseconds
    // on its own (docs/decisions/0091-search-skips-common-trigrams.md). ANALYZE keeps, with these
    // statistics, the thousand most common trigrams of the search text and the share of returns
    // holding each, so that the search asks the index only for a word's rarer parts. Built by an
    // ANALYZE of returns (a sample of 30,000 rows whatever their number; autovacuum's keep it).
    sql: `
      DO $migration$
      DECLARE
        trgm text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
      BEGIN
        EXECUTE format('CREATE STATISTICS returns_search_trigrams ON (%I.show_trgm(search_text)) FROM returns', trgm);
      END
      $migration$;
      ANALYZE returns;
    `,
  },
  {
    version: 26,
    name: 'the views counted as returns change',
    // The returns list's tabs count each view of the shop's every return (decision 0089), and a
    // view is a condition on a return's state and review alone: kept here per shop, state and
    // review (no review is ''), so that counting them reads a few rows, not an index entry per
    // return (docs/decisions/0100-view-tallies.md). A trigger on returns moves a return's count from
    // its old group to its new one at commit (deferred, as migration 22's: a tally row is locked
    // for the commit's end alone), under a lock per shop taken first, so that two writers of one
    // shop never wait on each other's tally rows in a circle. A shop deleted meanwhile takes its
    // tallies with it.
    sql: `
      CREATE TABLE return_view_tallies (
        shop_id text NOT NULL REFERENCES shops (id) ON DELETE CASCADE,
        state text NOT NULL,
        review text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (shop_id, state, review)
      );
      CREATE FUNCTION return_view_moved(moved_shop text, moved_state text, moved_review text, delta integer)
      RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(4127026, hashtext(moved_shop));
        IF NOT EXISTS (SELECT 1 FROM shops s WHERE s.id = moved_shop) THEN RETURN; END IF;
        INSERT INTO return_view_tallies AS t (shop_id, state, review, n)
        VALUES (moved_shop, moved_state, COALESCE(moved_review, ''), delta)
            ON CONFLICT (shop_id, state, review) DO UPDATE SET n = t.n + EXCLUDED.n;
      END
      $$;
      CREATE FUNCTION return_view_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM return_view_moved(OLD.shop_id, OLD.state, OLD.review, -1); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM return_view_moved(NEW.shop_id, NEW.state, NEW.review, 1); END IF;
        RETURN NULL;
      END
      $$;
      CREATE CONSTRAINT TRIGGER return_view_on_insert AFTER INSERT ON returns
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION return_view_kept();
      CREATE CONSTRAINT TRIGGER return_view_on_delete AFTER DELETE ON returns
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION return_view_kept();
      CREATE CONSTRAINT TRIGGER return_view_on_update AFTER UPDATE OF shop_id, state, review ON returns
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (OLD.shop_id IS DISTINCT FROM NEW.shop_id OR OLD.state IS DISTINCT FROM NEW.state
              OR OLD.review IS DISTINCT FROM NEW.review)
        EXECUTE FUNCTION return_view_kept();
      INSERT INTO return_view_tallies (shop_id, state, review, n)
      SELECT shop_id, state, COALESCE(review, ''), count(*) FROM returns GROUP BY shop_id, state, COALESCE(review, '');
    `,
  },
]

const LOCK_ID = 4_127_001

/** Applies the migrations this database has not seen yet; returns the versions applied. */
export async function migrate(db: Database): Promise<number[]> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  )
  const applied: number[] = []
  for (const migration of MIGRATIONS) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID])
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version])
      if (seen.length > 0) return false
      await tx.exec(migration.sql)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ])
      return true
    })
    if (done) applied.push(migration.version)
  }
  return applied
}
