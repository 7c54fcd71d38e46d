/* store_migrations.h: the schema migrations both engines run as the same
 * SQL text.  store_sqlite.c and store_pg.c each list every migration in
 * order (the number is the schema version it brings the database to);
 * an entry both write alike is here once, and theirs name it.
 *
 * Some differ only in words each engine spells its own way, which the
 * driver defines before its list, so that the text is written once and
 * each engine's stays what it was:
 *   STORE_SQL_INT64     a 64-bit integer column (SQLite's INTEGER, BIGINT)
 *   STORE_SQL_FLOAT64   a double (REAL, DOUBLE PRECISION)
 *   STORE_SQL_SERIAL    an integer key the engine numbers by itself
 *   STORE_SQL_NO_ROWID  after a table whose primary key is all it needs
 *                       (SQLite's WITHOUT ROWID)
 *   STORE_SQL_BYTEWISE  after a text that must compare byte by byte
 *                       (PostgreSQL's COLLATE "C"; SQLite's default) */
#ifndef GB_SERVER_STORE_MIGRATIONS_H
#define GB_SERVER_STORE_MIGRATIONS_H

/* 1 (part of it): the columns of results that both engines type alike,
 * between the number, identity and arrival of a result and when it was
 * retracted */
#define STORE_RESULTS_COLUMNS_1 \
  "  fingerprint TEXT NOT NULL,\n" \
  "  public_key TEXT NOT NULL,\n" \
  "  publisher TEXT,\n" \
  "  submitter TEXT,\n" \
  "  arch TEXT NOT NULL,\n" \
  "  cpu TEXT NOT NULL,\n" \
  "  cpu_name TEXT NOT NULL,\n" \
  "  os TEXT NOT NULL,\n" \
  "  gmp TEXT NOT NULL,\n" \
  "  compiler TEXT NOT NULL,\n" \
  "  created TEXT NOT NULL,\n" \
  "  scores TEXT NOT NULL,\n" \
  "  flags TEXT NOT NULL,\n" \
  "  flagged INTEGER NOT NULL,\n" \
  "  unlisted INTEGER NOT NULL,\n" \
  "  retracted INTEGER NOT NULL DEFAULT 0,\n"

/* 2: an index per listing filter, so that store_list.c can count matches
 * cheaply and start a selective listing from its filter */
#define STORE_MIGRATION_2 \
  "CREATE INDEX results_arch ON results (arch, listed, seq);\n" \
  "CREATE INDEX results_os ON results (os, listed, seq);\n" \
  "CREATE INDEX results_gmp ON results (gmp, listed, seq);\n" \
  "CREATE INDEX results_compiler ON results (compiler, listed, seq);\n" \
  "CREATE INDEX results_publisher ON results (publisher, listed, seq);\n"

/* 3: the CPU identity on every score row, so that the leaderboard of
 * one CPU sorted by a node is a walk along one index */
#define STORE_MIGRATION_3 \
  "ALTER TABLE scores ADD COLUMN cpu TEXT;\n" \
  "UPDATE scores SET cpu = (SELECT r.cpu FROM results r WHERE r.seq = scores.seq);\n" \
  "CREATE INDEX scores_cpu_rank ON scores (node, cpu, score DESC, seq DESC);\n"

/* 4: whether the result is listed and flagged, on its score rows too,
 * so that aggregates read one index and nothing else */
#define STORE_MIGRATION_4 \
  "ALTER TABLE scores ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;\n" \
  "ALTER TABLE scores ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0;\n" \
  "UPDATE scores SET listed = (SELECT r.listed FROM results r WHERE r.seq = scores.seq), " \
  "flagged = (SELECT r.flagged FROM results r WHERE r.seq = scores.seq);\n" \
  "DROP INDEX scores_cpu_rank;\n" \
  "CREATE INDEX scores_cpu_rank ON scores (node, cpu, score DESC, seq DESC, listed, flagged);\n"

/* 6: the filters that never change after upload (arch, OS, GMP,
 * compiler) on every score row too, inside the index by node and score:
 * a sorted, filtered listing then walks that one index, skipping the
 * rows that do not match inside it, and reads only the results shown */
#define STORE_MIGRATION_6 \
  "ALTER TABLE scores ADD COLUMN arch TEXT;\n" \
  "ALTER TABLE scores ADD COLUMN os TEXT;\n" \
  "ALTER TABLE scores ADD COLUMN gmp TEXT;\n" \
  "ALTER TABLE scores ADD COLUMN compiler TEXT;\n" \
  "UPDATE scores SET arch = r.arch, os = r.os, gmp = r.gmp, compiler = r.compiler " \
  "FROM results r WHERE r.seq = scores.seq;\n" \
  "DROP INDEX scores_rank;\n" \
  "CREATE INDEX scores_rank ON scores (node, score DESC, seq DESC, listed, flagged, arch, os, " \
  "gmp, compiler);\n"

/* 7: the newest scores of a CPU's headline nodes (depth 0 and 1) in one
 * small index, for the plausibility check of every upload, which
 * otherwise reads a thousand result rows per node */
#define STORE_MIGRATION_7 \
  "CREATE INDEX scores_cpu_recent ON scores (cpu, node, seq DESC, listed, flagged, score, " \
  "depth) WHERE depth <= 1;\n"

/* 8: the tests' ops/s out of the ranked score rows into a table of their
 * own, keyed by test and result: a whole run has about 200 tests against
 * 65 nodes, and each ranked row costs an insert into three indexes at a
 * random place, while a test's row goes at the end of its test's range.
 * A row is a test's when no node of its result lies below it (node names
 * compared byte by byte). */
#define STORE_MIGRATION_8 \
  "CREATE TABLE test_scores (\n" \
  "  node TEXT NOT NULL,\n" \
  "  seq " STORE_SQL_INT64 " NOT NULL,\n" \
  "  score " STORE_SQL_FLOAT64 " NOT NULL,\n" \
  "  PRIMARY KEY (node, seq))" STORE_SQL_NO_ROWID ";\n" \
  "INSERT INTO test_scores (node, seq, score) SELECT s.node, s.seq, s.score FROM scores s " \
  "WHERE NOT EXISTS (SELECT 1 FROM scores c WHERE c.seq = s.seq " \
  "AND c.node" STORE_SQL_BYTEWISE " > s.node || '.' " \
  "AND c.node" STORE_SQL_BYTEWISE " < s.node || '/');\n" \
  "DELETE FROM scores WHERE EXISTS (SELECT 1 FROM test_scores t " \
  "WHERE t.node = scores.node AND t.seq = scores.seq);\n"

/* 13: the tests' rows with their node's name as a small integer (names),
 * a third of their bytes, in tests; the rows stored before stay in
 * test_scores, read beside them, until the store moves them, in batches,
 * after the migration (store_backfill.c) */
#define STORE_MIGRATION_13 \
  "CREATE TABLE names (\n" \
  "  id " STORE_SQL_SERIAL ",\n" \
  "  name TEXT NOT NULL UNIQUE);\n" \
  "CREATE TABLE tests (\n" \
  "  node INTEGER NOT NULL,\n" \
  "  seq " STORE_SQL_INT64 " NOT NULL,\n" \
  "  score " STORE_SQL_FLOAT64 " NOT NULL,\n" \
  "  PRIMARY KEY (node, seq))" STORE_SQL_NO_ROWID ";\n" \
  "CREATE INDEX tests_seq ON tests (seq);\n" \
  "INSERT INTO backfill (name, next) VALUES ('tests', 0);\n"

/* 14: the score nodes' ranked rows with their node's name and the filters
 * (CPU, architecture, OS, GMP version, compiler) as numbers (names), in
 * ranks, and its two ranked indexes; the rows stored before stay in
 * scores, read beside them, until the store moves them, in batches, after
 * the migration (store_backfill.c) */
#define STORE_MIGRATION_14 \
  "CREATE TABLE ranks (\n" \
  "  seq " STORE_SQL_INT64 " NOT NULL,\n" \
  "  node INTEGER NOT NULL,\n" \
  "  depth INTEGER NOT NULL,\n" \
  "  score " STORE_SQL_FLOAT64 " NOT NULL,\n" \
  "  cpu INTEGER,\n" \
  "  listed INTEGER NOT NULL,\n" \
  "  flagged INTEGER NOT NULL,\n" \
  "  arch INTEGER,\n" \
  "  os INTEGER,\n" \
  "  gmp INTEGER,\n" \
  "  compiler INTEGER,\n" \
  "  PRIMARY KEY (seq, node))" STORE_SQL_NO_ROWID ";\n" \
  "CREATE INDEX ranks_rank ON ranks (node, score DESC, seq DESC, listed, flagged, arch, os, " \
  "gmp, compiler);\n" \
  "CREATE INDEX ranks_cpu_rank ON ranks (node, cpu, score DESC, seq DESC, listed, flagged);\n" \
  "INSERT INTO backfill (name, next) VALUES ('ranks', 0);\n"

/* 16: the source of each upload (the network it came from, or its
 * verified publisher, as a keyed hash: store_sources.c), the secret that
 * keys it, and which sources stand behind each CPU row (identity, run
 * mode, GMP build kind), so that a row is confirmed by three sources or a
 * verified publisher without reading its results */
#define STORE_MIGRATION_16 \
  "ALTER TABLE results ADD COLUMN source TEXT;\n" \
  "CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);\n" \
  "CREATE TABLE row_sources (\n" \
  "  cpu TEXT NOT NULL,\n" \
  "  mode TEXT NOT NULL,\n" \
  "  build TEXT NOT NULL,\n" \
  "  source TEXT NOT NULL,\n" \
  "  verified INTEGER NOT NULL,\n" \
  "  PRIMARY KEY (cpu, mode, build, source));\n" \
  "CREATE INDEX results_row_source ON results (cpu, mode, build, source, listed);\n"

/* 17: whether the result ran in a virtual machine (its document names a
 * hypervisor: model/machine_kind.h), which the listings mark and filter
 * by; read from every stored document, in batches, after the migration
 * (store_backfill.c) */
#define STORE_MIGRATION_17 \
  "ALTER TABLE results ADD COLUMN virtual_machine INTEGER NOT NULL DEFAULT 0;\n" \
  "INSERT INTO backfill (name, next) VALUES ('virtual', 0);\n"

/* 19: the operators' actions (gmpbench-server admin, server/admin/), one
 * row each, with when, who, what on which target, why and what it
 * changed: append-only, each engine adding the triggers that refuse to
 * update or delete a row; and a result hidden by the operators, when and
 * why (a hidden result is not listed: store_admin.c) */
#define STORE_MIGRATION_19 \
  "CREATE TABLE audit (\n" \
  "  seq " STORE_SQL_SERIAL ",\n" \
  "  at " STORE_SQL_INT64 " NOT NULL,\n" \
  "  actor TEXT NOT NULL,\n" \
  "  verb TEXT NOT NULL,\n" \
  "  target TEXT NOT NULL,\n" \
  "  reason TEXT,\n" \
  "  detail TEXT NOT NULL);\n" \
  "ALTER TABLE results ADD COLUMN hidden_at " STORE_SQL_INT64 ";\n" \
  "ALTER TABLE results ADD COLUMN hidden_reason TEXT;\n"

/* 20: a result's later place in the dump (store_move_in_dump): a number
 * from the results' own sequence, taken when it was retracted, hidden or
 * shown again, so that a mirror resuming after its old place still reads
 * the change; NULL while it stays at its seq */
#define STORE_MIGRATION_20 \
  "ALTER TABLE results ADD COLUMN moved_to " STORE_SQL_INT64 ";\n" \
  "CREATE INDEX results_moved ON results (moved_to) WHERE moved_to IS NOT NULL;\n"

#endif
