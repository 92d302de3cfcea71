export const USAGE = `usage: ndc-gateway <command> [options]

commands:
  serve [--workers N]     run the gateway: N worker processes on one port (default GATEWAY_WORKERS,
                          else one per core) and the scheduler app, supervised (docs/operations.md)
  worker                  one gateway process, HTTP only, no scheduled work (N beside one scheduler)
  scheduler               the scheduler app: every scheduled job, against the same data directory
  scheduler status        each job's last run (outcome, summary), next run, and who runs it now
  migrate                 apply pending storage migrations and list what was applied
  migrate --to URL        move this SQLite database, once, into an empty PostgreSQL (postgres://...): copied,
                          verified table by table, committed only if all match (docs/operations.md)
  seed                    migrate, then create the sandbox seller (local mode) and print its credentials
  agency ...              register and manage agencies (ndc-gateway agency help)
  client ...              register and manage seller clients (ndc-gateway client help)
  web-shop ...            the airline's own web shop: seats, bookings, customer accounts (ndc-gateway web-shop help)
  reconcile-failed ...    list and resolve payment steps the reconciler could not finish (ndc-gateway reconcile-failed help)
  overrides ...           the airline's fare-rule overrides (append-only, hash-chained; ndc-gateway overrides help)
  promotions ...          switch the promotion criteria on or off, or show them (ndc-gateway promotions help)
  seller ...              a seller's toolkit for any NDC 24.4 gateway: token, shop, book, sign, listen, certify (ndc-gateway seller help)
  staff ...               staff console accounts and the staff audit trail (ndc-gateway staff help)
  documents ...           a supervisor's erase of an order's identity documents, and the erasure audit (ndc-gateway documents help)
  order evidence ID       write a signed order's original request and its verification report (docs/signatures.md)
  version                 print the version
  help                    print this text

Configuration comes from environment variables (docs/configuration.md), notably
GATEWAY_MODE (local|sandbox|production), PORT, GATEWAY_DATA_DIR, GATEWAY_WORKERS, TLS_CERT_FILE, TLS_KEY_FILE.`;
