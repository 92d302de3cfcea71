#!/bin/sh
# How the code talks to the store, counted (issue 23 groundwork, decision 0041's appendix):
# each line is "count  files  what  (the grep)", then the files of the rows that name few.
# Production code only (packages/ and apps/, not test/, bench/ or *.test.ts), and the SQL migrations.
#   sh scripts/pg-survey.sh            counts
#   sh scripts/pg-survey.sh --files    counts, then the files behind each count
cd "$(dirname "$0")/.." || exit 1
TS="packages apps"
MIG=schemas/migrations
FILES=${1:-}

# count LABEL EXTENDED-REGEX PATHS...: matches (lines) and files, over .ts or .sql.
count() {
  label=$1; re=$2; shift 2
  n=$(grep -rEn --include='*.ts' --include='*.sql' -e "$re" "$@" | grep -v -e '/test/' -e '\.test\.ts' | wc -l)
  f=$(grep -rEl --include='*.ts' --include='*.sql' -e "$re" "$@" | grep -v -e '/test/' -e '\.test\.ts' | wc -l)
  printf '%5s %4s  %-58s %s\n' "$n" "$f" "$label" "grep -E '$re' $*"
  if [ "$FILES" = "--files" ]; then grep -rEl --include='*.ts' --include='*.sql' -e "$re" "$@" | grep -v -e '/test/' -e '\.test\.ts' | sort | sed 's/^/             /'; fi
}

echo "lines files  what (TypeScript in $TS)"
count "drizzle table definitions (sqliteTable)"            'sqliteTable\(' $TS
count "imports of drizzle-orm/sqlite-core"                 'drizzle-orm/sqlite-core' $TS
count "StoreDb / BaseSQLiteDatabase in signatures"         '\bStoreDb\b|BaseSQLiteDatabase' $TS
count "store.write( transactions"                          '\.write\(async|\.write\(\(' $TS
count "drizzle .run() / .all() / .get() / .values()"      '\.(run|all|values)\(|\.get\(\)' $TS
count "raw sql\`...\` templates"                           'sql`' $TS
count "sql.raw / raw.exec (unparameterised SQL)"           'sql\.raw\(|raw\.exec\(|\.exec\("' $TS
count "preparedOnce / .prepare( / sql.placeholder"        'preparedOnce\(|\.prepare\(|sql\.placeholder\(' $TS
count "afterCommit / atEndOfWrite / withEndOfWrite"        'afterCommit\(|atEndOfWrite\(|withEndOfWrite\(' $TS
count "othersCommitted / changeCounter (data_version)"     'othersCommitted|changeCounter' $TS
count "integer columns (64-bit in SQLite, int4 in pg-core)" '\binteger\("' $TS
count "  of which mode boolean (0/1)"                      'mode: "boolean"' $TS
count "  of which mode timestamp"                          'mode: "timestamp' $TS
count "blob columns"                                       '\bblob\("' $TS
count "text columns with mode json"                        'text\("[a-z_]+", \{ mode: "json"' $TS
count "onConflictDoNothing / onConflictDoUpdate"           'onConflictDo(Nothing|Update)' $TS
count "excluded. (upsert's new row)"                       '\bexcluded\.' $TS
count ".returning( / RETURNING"                            '\.returning\(|RETURNING' $TS
count "INSERT OR IGNORE / OR REPLACE / .onConflict raw"    'OR IGNORE|OR REPLACE' $TS
count "json_each / json_extract / json_valid / json_group" 'json_(each|extract|valid|group_array|object|array)' $TS
count "PRAGMA"                                             'PRAGMA' $TS
count "changes() / last_insert_rowid / rowid"              'changes\(\)|last_insert_rowid|\browid\b' $TS
count "isConstraintViolation / SQLITE_ error codes"        'isConstraintViolation|SQLITE_[A-Z]+' $TS
count "strftime / datetime( / unixepoch / julianday"       'strftime|datetime\(|unixepoch|julianday' $TS
count "IFNULL / IIF / GROUP_CONCAT / INSTR / GLOB"         'IFNULL|\bIIF\(|GROUP_CONCAT|\bINSTR\(|\bGLOB\b' $TS
count "LIKE (case-insensitive for ASCII on SQLite only)"   '\bLIKE\b|\blike\(' $TS
echo
echo "lines files  what (SQL in $MIG, $(ls $MIG/*.sql | wc -l) migrations)"
count "CREATE TABLE"                                       'CREATE TABLE' $MIG
count "  WITHOUT ROWID"                                    'WITHOUT ROWID' $MIG
count "INTEGER PRIMARY KEY (rowid alias) / AUTOINCREMENT"  'INTEGER PRIMARY KEY|AUTOINCREMENT' $MIG
count "CREATE [UNIQUE] INDEX"                              'CREATE (UNIQUE )?INDEX' $MIG
count "  partial indexes (WHERE)"                          'CREATE (UNIQUE )?INDEX.*WHERE' $MIG
count "CREATE TRIGGER"                                     'CREATE TRIGGER' $MIG
count "  RAISE(ABORT) (append-only refusals)"              'RAISE\(ABORT' $MIG
count "ALTER TABLE"                                        'ALTER TABLE' $MIG
count "  ... RENAME / DROP (SQLite's table rebuilds)"      'ALTER TABLE .* (RENAME|DROP)|DROP TABLE' $MIG
count "json_valid / json_each / json_extract"             'json_(valid|each|extract)' $MIG
count "INSERT OR IGNORE / OR REPLACE"                      'OR IGNORE|OR REPLACE' $MIG
count "BLOB columns"                                       '\bBLOB\b' $MIG
count "COLLATE"                                            'COLLATE' $MIG
count "PRAGMA"                                             'PRAGMA' $MIG
