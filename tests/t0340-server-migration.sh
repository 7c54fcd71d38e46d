# t0340-server-migration.sh: a database at schema version 5 (score rows
# without the filter columns of migration 6, the old score index, no
# index of migration 7, the tests' ops/s among the score rows as before
# migration 8, results without the category and flag columns of
# migration 9) is upgraded when the server starts, on SQLite and on
# PostgreSQL: its results keep their place in filtered, sorted listings,
# take their GMP build kind from system.build.gmp.build (migration 10;
# unknown without it), have their documents compressed (migration 12:
# the downgrade puts them back as plain text) and served as the exact
# bytes uploaded, have their tests' rows moved to the table of migration
# 13 (node names as numbers), are marked bare metal or virtual from
# their documents (migration 17: system.cpu.hypervisor), and new uploads
# join them.  Tests' rows
# still in the old table (as before the backfill reaches them) are read
# beside the new ones.  The measurements of the new uploads are taken
# (migration 18): a copy of them is refused, while those stored before
# it have no fingerprint.
. "$SRCDIR/tests/lib.sh"
. "$SRCDIR/tests/server-lib.sh"
need_server

make_key alice > /dev/null
make_key bob > /dev/null

# TEST: a test the documents have.
TEST=gmpbench.base.multiply.128

# rows_back [CONDITION]: SQL (for both engines) that puts the rows of
# the tests and score nodes (of the results with seq CONDITION) back in
# test_scores and scores, as before migrations 13 and 14.
rows_back () {
  cat <<EOF
INSERT INTO test_scores (node, seq, score)
SELECT n.name, t.seq, t.score FROM tests t JOIN names n ON n.id = t.node WHERE t.seq ${1:->0};
DELETE FROM tests WHERE seq ${1:->0};
INSERT INTO scores (seq, node, depth, score, cpu, listed, flagged, arch, os, gmp, compiler)
SELECT s.seq, n.name, s.depth, s.score, c.name, s.listed, s.flagged, a.name, o.name, g.name,
  m.name
FROM ranks s JOIN names n ON n.id = s.node LEFT JOIN names c ON c.id = s.cpu
  LEFT JOIN names a ON a.id = s.arch LEFT JOIN names o ON o.id = s.os
  LEFT JOIN names g ON g.id = s.gmp LEFT JOIN names m ON m.id = s.compiler
WHERE s.seq ${1:->0};
DELETE FROM ranks WHERE seq ${1:->0};
EOF
}

DOWNGRADE="$(rows_back)
DROP INDEX results_moved;
ALTER TABLE results DROP COLUMN moved_to;
DROP TABLE audit;
ALTER TABLE results DROP COLUMN hidden_at;
ALTER TABLE results DROP COLUMN hidden_reason;
DROP TABLE measurements;
ALTER TABLE results DROP COLUMN virtual_machine;
DELETE FROM backfill WHERE name = 'virtual';
DROP INDEX results_row_source;
DROP TABLE row_sources;
DROP TABLE secrets;
ALTER TABLE results DROP COLUMN source;
DROP TABLE dicts;
DELETE FROM backfill WHERE name = 'repack';
DROP TABLE ranks;
DROP TABLE tests;
DROP TABLE names;
DELETE FROM backfill WHERE name IN ('tests', 'ranks');
ALTER TABLE results DROP COLUMN packed;
DELETE FROM backfill WHERE name = 'packed';
INSERT INTO scores (seq, node, depth, score, cpu, listed, flagged, arch, os, gmp,
  compiler)
SELECT t.seq, t.node, length(t.node) - length(replace(t.node, '.', '')), t.score, r.cpu,
  r.listed, r.flagged, r.arch, r.os, r.gmp, r.compiler
FROM test_scores t JOIN results r ON r.seq = t.seq;
DROP TABLE test_scores;
DROP INDEX results_category;
ALTER TABLE results DROP COLUMN mode;
ALTER TABLE results DROP COLUMN build;
ALTER TABLE results DROP COLUMN flags_at;
ALTER TABLE results DROP COLUMN flag_notes;
DROP INDEX scores_rank;
ALTER TABLE scores DROP COLUMN arch;
ALTER TABLE scores DROP COLUMN os;
ALTER TABLE scores DROP COLUMN gmp;
ALTER TABLE scores DROP COLUMN compiler;
CREATE INDEX scores_rank ON scores (node, score DESC, seq DESC);
DROP TABLE IF EXISTS changes;
DELETE FROM schema_version WHERE version > 5;"

# upload NAME SCALE [server-doc.py options]: a signed document scoring
# gmpbench.base.multiply.
upload () {
  name=$1 scale=$2
  shift 2
  make_doc "$name.json" alice --name "$name" --multiply --scale "$scale" "$@" &&
    post "$name.json" "$(sign "$name.json" alice)"
}

# plain_bodies NAME...: SQL (for both engines) that stores the documents
# NAME.json as plain text again, as before migration 12.
plain_bodies () {
  $PY - "$@" <<'EOF'
import hashlib, sys
for name in sys.argv[1:]:
    data = open(name + '.json', 'rb').read()
    text = data.decode('utf-8').replace("'", "''")
    print("UPDATE results SET body = '%s' WHERE sha256 = '%s';"
          % (text, hashlib.sha256(data).hexdigest()))
EOF
}

# idof NAME: the id of NAME.json.
idof () {
  sha256sum "$1.json" | cut -c1-16
}

# listed: the ids in the sorted, filtered listing, best first.
listed () {
  get "/api/v1/results?arch=x86_64&os=Debian%20GNU/Linux&sort=gmpbench.base.multiply" > /dev/null
  field "' '.join(r['id'] for r in d['results'])"
}

# by_test [QUERY]: the ids in the listing sorted by TEST (and QUERY),
# best first.
by_test () {
  get "/api/v1/results?sort=$TEST$1" > /dev/null
  field "' '.join(r['id'] for r in d['results'])"
}

# run_upgrade ENGINE DB SQL...: the checks, with SQL the command that runs
# a script on DB (the downgrade) from its standard input.
run_upgrade () {
  engine=$1 db=$2
  shift 2
  start_server "$db" --key-rate 0 || { fail "$engine: the server starts"; return; }
  upload a 1 > /dev/null
  upload b 2 > /dev/null
  upload c 3 --set 'system.build.gmp.build="fat"' --set 'system.cpu.hypervisor=null' > /dev/null
  get /healthz > /dev/null
  latest=$(field "d['schema']")
  tests=$(echo "SELECT count(*) FROM tests;" | "$@" 2> /dev/null | tr -d ' ')
  stop_server
  { plain_bodies a b c; echo "$DOWNGRADE"; } | "$@" > /dev/null 2>&1
  check "$engine: the database is back at schema 5" \
    sh -c "echo 'SELECT max(version) FROM schema_version;' | $* 2> /dev/null | grep -qx ' *5'"
  start_server "$db" --key-rate 0 || { fail "$engine: the server starts on the old schema"; return; }
  get /healthz > /dev/null
  expect_status "$engine: the server migrated the database to schema $latest" "$latest" \
    "$(field "d['schema']")"
  check "$engine: the migration copied the filters onto every score row" \
    sh -c "echo 'SELECT count(*) FROM scores WHERE arch IS NULL OR os IS NULL OR gmp IS NULL
      OR compiler IS NULL;' | $* 2> /dev/null | grep -qx ' *0'"
  check "$engine: the migration moved the tests' ops/s out of the score rows" \
    sh -c "echo \"SELECT count(*) FROM scores WHERE node LIKE 'gmpbench.base.multiply.%';\" |
      $* 2> /dev/null | grep -qx ' *0'"
  check "$engine: ... into tests, whole, under their names' numbers (migration 13)" \
    sh -c "echo \"SELECT count(*) FROM tests t JOIN names n ON n.id = t.node
      WHERE n.name LIKE 'gmpbench.base.multiply.%';\" | $* 2> /dev/null | grep -qx ' *$tests'"
  check "$engine: ... none left in test_scores" \
    sh -c "echo 'SELECT count(*) FROM test_scores;' | $* 2> /dev/null | grep -qx ' *0'"
  check "$engine: the score nodes' rows moved to ranks, names as numbers (migration 14)" \
    sh -c "echo \"SELECT count(*) FROM ranks s JOIN names n ON n.id = s.node
      JOIN names a ON a.id = s.arch WHERE n.name = 'gmpbench.base.multiply'
      AND a.name = 'x86_64';\" | $* 2> /dev/null | grep -qx ' *3'"
  check "$engine: ... none left in scores" \
    sh -c "echo 'SELECT count(*) FROM scores;' | $* 2> /dev/null | grep -qx ' *0'"
  expect_status "$engine: the old results are listed sorted by a test" \
    "$(idof c) $(idof b) $(idof a)" "$(by_test)"
  check "$engine: the build kinds come from system.build.gmp.build, unknown without it" \
    sh -c "echo 'SELECT build FROM results ORDER BY seq;' | $* 2> /dev/null | tr -d ' ' |
      grep . | tr '\\n' ' ' | grep -qx 'unknown unknown fat '"
  check "$engine: each is marked virtual or bare metal from its document (migration 17)" \
    sh -c "echo 'SELECT virtual_machine FROM results ORDER BY seq;' | $* 2> /dev/null |
      tr -d ' ' | grep . | tr '\\n' ' ' | grep -qx '1 1 0 '"
  get "/api/v1/results?machine=bare-metal" > /dev/null
  expect_status "$engine: ... which the listings filter by" "$(idof c) false" \
    "$(field "' '.join(r['id'] + ' ' + str(r['virtual']).lower() for r in d['results'])")"
  check "$engine: the old documents were compressed (migration 12)" \
    sh -c "echo \"SELECT count(*) FROM results WHERE packed IS NULL OR body <> '';\" |
      $* 2> /dev/null | grep -qx ' *0'"
  for name in a b c; do
    st=$(get "/api/v1/results/$(idof $name)/raw")
    check "$engine: /raw gives old result $name's exact bytes" \
      sh -c "[ $st = 200 ] && cmp -s resp.json $name.json"
  done
  expect_status "$engine: the old results are listed, filtered and sorted" \
    "$(idof c) $(idof b) $(idof a)" "$(listed)"
  upload d 4 > /dev/null
  expect_status "$engine: a new upload joins them in its place" \
    "$(idof d) $(idof c) $(idof b) $(idof a)" "$(listed)"
  rows_back '<= 2' | "$@" > /dev/null 2>&1
  check "$engine: the rows of two results are back in the old tables" \
    sh -c "echo 'SELECT count(DISTINCT seq) FROM test_scores;' | $* 2> /dev/null | grep -qx ' *2' &&
      echo 'SELECT count(DISTINCT seq) FROM scores;' | $* 2> /dev/null | grep -qx ' *2'"
  expect_status "$engine: rows not yet moved are listed by a test among the others" \
    "$(idof d) $(idof c) $(idof b) $(idof a)" "$(by_test)"
  expect_status "$engine: ... and filtered (the plan by matches)" \
    "$(idof d) $(idof c) $(idof b) $(idof a)" "$(by_test '&arch=x86_64')"
  expect_status "$engine: ... and by a node, filtered" \
    "$(idof d) $(idof c) $(idof b) $(idof a)" "$(listed)"
  get "/api/v1/results?sort=gmpbench.base.multiply&limit=3" > /dev/null
  get "/api/v1/results?sort=gmpbench.base.multiply&limit=2&cursor=$(field "d['next_cursor']")" > /dev/null
  expect_status "$engine: ... and the next page from a cursor" \
    "$(idof a)" "$(field "' '.join(r['id'] for r in d['results'])")"
  copy_doc d.json d-copy.json bob
  st=$(post d-copy.json "$(sign d-copy.json bob)" '?unlisted=1')
  expect_rule "$engine: a copy of a result uploaded since is refused (migration 18)" \
    409 duplicate-measurements "$st"
  copy_doc a.json a-copy.json bob
  st=$(post a-copy.json "$(sign a-copy.json bob)" '?unlisted=1')
  expect_status "$engine: ... one of a result stored before it has no fingerprint to meet" \
    201 "$st"
  stop_server
}

on_both_engines run_upgrade "the PostgreSQL upgrade"
