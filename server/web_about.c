/* web_about.c: the about page: what the numbers mean (the scoring formula
 * of docs/scoring.md), what a result holds (docs/result-format.md) and how
 * to check a result without trusting this server (docs/signing.md).  The
 * text is fixed; it quotes the documents rather than replacing them. */
#include "server/web.h"

static const char about[] =
  "<p>GMPbench measures big-number arithmetic: how many operations per second GMP (and,\n"
  "for comparison, OpenSSL, libgcrypt and Nettle) performs on a machine.  Each result\n"
  "is one run of <code>gmpbench run</code>, signed with its submitter's Ed25519 key and\n"
  "stored here byte for byte.</p>\n"
  "<h2 id=\"score\">The score</h2>\n"
  "<p>A test's result is its operations per second.  Scores are computed exactly as\n"
  "GMPbench 0.2's <code>runbench</code> does (docs/scoring.md):</p>\n"
  "<ul>\n"
  "<li>a program's score (multiply, divide, gcd, gcdext, rsa, pi) is the geometric mean\n"
  "of its tests' ops/s;</li>\n"
  "<li>a category's score (base, app) is the weighted geometric mean of its programs'\n"
  "scores, <code>exp(\u03a3 w<sub>i</sub> ln s<sub>i</sub> / \u03a3 w<sub>i</sub>)</code>,\n"
  "with multiply, divide, rsa and pi weighing 1 and gcd, gcdext 0.5;</li>\n"
  "<li>the GMPbench score is the geometric mean of the base and app scores.</li>\n"
  "</ul>\n"
  "<p>Every node of the hierarchy is scored the same way from its children, and only\n"
  "when every test below it has a result.  The server recomputes every score of every\n"
  "upload and refuses a document whose scores differ, or whose output digests differ\n"
  "from the reference (a library that computes wrong results).</p>\n"
  "<h2 id=\"columns\">The leaderboard's columns</h2>\n"
  "<dl class=\"machine\">\n"
  "<dt>n</dt><dd>results of the CPU that match the filters.</dd>\n"
  "<dt>Median score, IQR</dt><dd>the median GMPbench score of those results and its\n"
  "interquartile range (first to third quartile).</dd>\n"
  "<dt>Best</dt><dd>the highest of those scores.</dd>\n"
  "<dt>Score/GHz</dt><dd>the median of each result's score divided by its clock in GHz\n"
  "(the maximum clock the system reports, else the nominal one, else the measured one).</dd>\n"
  "<dt>Score/core</dt><dd>the median of each score divided by the physical core count\n"
  "(else the logical one).  The score itself is single-threaded.</dd>\n"
  "<dt>GMP/OpenSSL RSA-2048</dt><dd>the median of GMP's RSA-2048 signatures per second\n"
  "(<code>gmpbench.app.rsa.2048</code>) over OpenSSL's (<code>openssl.rsa.sign.2048</code>)\n"
  "in the same run: above 1, GMP is faster.</dd>\n"
  "</dl>\n"
  "<p>Flagged results (an outlier score, a brand string that does not fit the vendor, an\n"
  "implausible clock) are left out unless asked for.  A verified publisher is a key the\n"
  "operator has tied to a vendor's name.  The leaderboard is recomputed at most once a\n"
  "minute.</p>\n"
  "<h2 id=\"schema\">What a result holds</h2>\n"
  "<p>A result is a JSON document of format <code>gmpbench-result/1</code>\n"
  "(docs/result-format.md): <code>client</code>, <code>created</code>, <code>run</code>\n"
  "(mode, time per test, threads), <code>system</code> (everything known about the\n"
  "machine: CPU identity and features, clock, cores, caches, memory, OS, the GMP and\n"
  "OpenSSL builds, the compiler; docs/sysinfo.md), <code>results</code> (per test: ops/s,\n"
  "seconds per operation, relative spread, samples, digest), <code>skipped</code>,\n"
  "<code>scores</code>, <code>comparisons</code> (GMP against the other libraries) and\n"
  "<code>submitter</code> (the public key, and a name).  The JSON API is documented in\n"
  "docs/protocol.md; every page here is built from the same data as\n"
  "<a href=\"/api/v1/cpus\">/api/v1/cpus</a> and <code>/api/v1/results</code>.</p>\n"
  "<h2 id=\"verify\">Verifying a result yourself</h2>\n"
  "<p>Every result page links to the exact bytes that were uploaded (<code>raw</code>)\n"
  "and their signature.  With <code>gmpbench verify r.json</code>, or with nothing but\n"
  "openssl and a POSIX shell (docs/signing.md):</p>\n"
  "<pre><code>ID=3f2a9c0d11e4b7a8   # the result's id\n"
  "curl -sS -o r.json https://THIS-SERVER/api/v1/results/$ID/raw\n"
  "curl -sS -o r.json.sig https://THIS-SERVER/api/v1/results/$ID/signature\n"
  "PUB=$(sed -n 's/.*\"public_key\":[[:space:]]*\"\\([^\"]*\\)\".*/\\1/p' r.json)\n"
  "{ printf '\\060\\052\\060\\005\\006\\003\\053\\145\\160\\003\\041\\000'; "
  "echo \"$PUB\" | base64 -d; } \\\n"
  "  | openssl pkey -pubin -inform DER -out signer.pem\n"
  "base64 -d r.json.sig &gt; r.json.sig.bin\n"
  "openssl pkeyutl -verify -pubin -inkey signer.pem -rawin -in r.json -sigfile r.json.sig.bin\n"
  "# Signature Verified Successfully</code></pre>\n"
  "<p>This proves the document is what the holder of that key signed.  The key's\n"
  "fingerprint, shown on every result, is the SHA-256 of the raw key:\n"
  "<code>echo \"$PUB\" | base64 -d | sha256sum</code>.  To check the numbers too, run\n"
  "<code>gmpbench show r.json</code>: it recomputes the scores from the ops/s.</p>\n";

enum MHD_Result
web_about (struct http_request *r)
{
  struct page p;
  if (page_begin (&p, r, "About these results") < 0)
    return MHD_NO;
  fputs (about, p.f);
  return page_end (&p, 200);
}
