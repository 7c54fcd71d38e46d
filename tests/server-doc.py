#!/usr/bin/env python3
# server-doc.py: makes result documents for the server tests (t03xx).
#
#   server-doc.py PUBLIC_KEY_BASE64 OUT [OPTION]...
#
# Starts from tests/fixtures/server-result.json (a real `gmpbench run`
# document with one test, its registry and digests brought up to date with
# the registry's) and sets submitter.public_key.  Options:
#   --name NAME        submitter.name (makes otherwise equal documents differ)
#   --multiply         all gmpbench.base.multiply tests, with the node score
#   --base             all gmpbench.base tests, with every node score
#   --tree NODE        all tests under NODE (e.g. openssl.rsa), with the
#                      score of every node complete
#   --scale X          multiply every ops_per_sec (and the scores) by X
#   --identity ID      system.cpu.identity (a CPU of its own)
# Documents made with different options have different measurements, as
# different runs do (the server refuses a copy of stored measurements,
# 409 duplicate-measurements): each test's wall_seconds is lengthened by
# at most 1% from a hash of the options (before --set, which may still set
# it), so the same options with another key make a copy.
# A test's other members are kept consistent with its ops_per_sec as the
# client's harness makes them (the server refuses contradictions), and
# the made-up ops/s of --multiply and --base stay within what a 2 GHz core
# can do for the operands' sizes (before --scale), unless --set breaks them.
#   --from FILE        start from FILE instead (fixtures/server-full.json is
#                      a real run of every gmpbench test and RSA-2048 in
#                      OpenSSL, with the GMP-vs-OpenSSL comparison)
#   --scale-test NAME=X  multiply the ops_per_sec of test NAME by X after
#                      --scale (with --multiply, --base or --tree the node
#                      scores follow; else only for a test no scored node
#                      covers)
#   --spread X         every test's spread X (noisy above 2%)
#   --bad-score        the node score off by 1%
#   --digest HEX       the first test's digest
#   --set PATH=JSON    set a member (dotted PATH, numbers index arrays) to a
#                      JSON value
#   --drop NAME        remove the top-level member NAME (--drop registry: a
#                      document from a client older than registry ids)
#   --threads N        add a multi-threaded run of N copies (N times each
#                      test's ops/s, perfect efficiency) on a system of N
#                      usable CPUs (--threads all)
import hashlib, json, math, os, re, sys

# The nodes that do not weigh 1 among their siblings (model/registry_table.c).
WEIGHTS = {"gmpbench.base.gcd": 0.5, "gmpbench.base.gcdext": 0.5}


def reference_digests(here):
    """name -> digest, from fixtures/server-digests.txt (gmpbench list
    --digests), then the other deterministic tests of model/reference.c."""
    table = {}
    with open(os.path.join(here, "fixtures", "server-digests.txt")) as f:
        for line in f:
            name, digest = line.split()
            table[name] = digest
    with open(os.path.join(here, "..", "model", "reference.c")) as f:
        for name, digest in re.findall(r'\{\s*"([^"]+)",\s*"([0-9a-f]{64})"\s*\}', f.read()):
            table.setdefault(name, digest)
    return table


def geomean(values, weights):
    return math.exp(sum(w * math.log(v) for v, w in zip(values, weights)) / sum(weights))


def operand_bits(name):
    """The sizes a test's name ends with, added (128,128 -> 256)."""
    return sum(int(x) for x in name.rsplit(".", 1)[1].split(",") if x.isdigit())


def consistent(r):
    """The members of test R agreeing with its ops_per_sec, as
    suites/harness.c writes them."""
    r["seconds_per_op"] = 1 / r["ops_per_sec"]
    r["median_ops_per_sec"] = min(r["median_ops_per_sec"], r["ops_per_sec"])
    r["wall_seconds"] = max(r["wall_seconds"],
                            r["samples"] * r["reps_per_sample"] * r["seconds_per_op"])
    r["cpu_seconds"] = min(r["cpu_seconds"], r["wall_seconds"])
    r["flags"] = ([f for f in ["noisy"] if r["spread"] > 0.02] +
                  [f for f in ["cpu-diverged"] if r["cpu_seconds"] < 0.9 * r["wall_seconds"]])


def replace_results(doc, digests, prefix):
    """Every test under PREFIX, with made-up but consistent ops/s."""
    base = doc["results"][0]
    doc["results"] = []
    for k, name in enumerate(n for n in digests if n.startswith(prefix + ".")):
        r = dict(base)
        r["name"] = name
        r["ops_per_sec"] = min(1e7 / (k + 1), 64e8 / max(1, operand_bits(name)))
        r["digest"] = digests[name]
        doc["results"].append(r)
    doc["run"]["only"] = [prefix]


def node_scores(doc, tests):
    """The score of every node of DOC all of whose TESTS (every test name)
    have a result: the weighted geometric mean of its children."""
    ops = {r["name"]: r["ops_per_sec"] for r in doc["results"]}

    def score(node):
        if node in ops:
            return ops[node]
        below = [t for t in tests if t.startswith(node + ".")]
        children = sorted({t[:len(node) + 1] + t[len(node) + 1:].split(".")[0] for t in below})
        return geomean([score(c) for c in children], [WEIGHTS.get(c, 1.0) for c in children])

    nodes = {r["name"].rsplit(".", k)[0] for r in doc["results"]
             for k in range(1, r["name"].count(".") + 1)}
    return {n: score(n) for n in sorted(nodes)
            if all(t in ops for t in tests if t.startswith(n + "."))}


def add_threads(doc, n):
    """A multi-threaded run of N copies of every test, each as fast as the
    single one, on a system with N usable CPUs."""
    results = []
    for r in doc["results"]:
        t = dict(r)
        t["ops_per_sec"] *= n
        consistent(t)
        t["efficiency"] = 1.0
        results.append(t)
    doc["threads"] = {"count": n, "results": results, "pinned": True,
                      "scores": {k: v * n for k, v in doc["scores"].items()}}
    doc["run"]["threads"] = n
    doc["system"]["cores"]["usable"] = n


def run_of(doc, args):
    """Lengthens every test's wall_seconds by a factor of ARGS's own, so
    that documents made with other options hold other measurements."""
    h = int(hashlib.sha256("\0".join(args).encode()).hexdigest(), 16)
    for r in doc["results"]:
        r["wall_seconds"] *= 1 + (1 + h % 99991) * 1e-7


def main(argv):
    pub, out = argv[1], argv[2]
    args = argv[3:]
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.join(here, "fixtures", "server-result.json")
    if "--from" in args:
        source = args[args.index("--from") + 1]
    with open(source) as f:
        doc = json.load(f)
    doc["submitter"] = {"public_key": pub}
    scale, bad_score = 1.0, False
    prefix = None
    sets = []
    test_scales = []
    threads = 0
    spread = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--name":
            doc["submitter"]["name"] = args[i + 1]; i += 1
        elif a == "--multiply":
            prefix = "gmpbench.base.multiply"
        elif a == "--base":
            prefix = "gmpbench.base"
        elif a == "--tree":
            prefix = args[i + 1]; i += 1
        elif a == "--spread":
            spread = float(args[i + 1]); i += 1
        elif a == "--scale":
            scale = float(args[i + 1]); i += 1
        elif a == "--from":
            i += 1
        elif a == "--identity":
            doc["system"]["cpu"]["identity"] = args[i + 1]; i += 1
        elif a == "--scale-test":
            name, factor = args[i + 1].split("=", 1)
            test_scales.append((name, float(factor))); i += 1
        elif a == "--bad-score":
            bad_score = True
        elif a == "--digest":
            doc["results"][0]["digest"] = args[i + 1]; i += 1
        elif a == "--set":
            path, value = args[i + 1].split("=", 1)
            sets.append((path, json.loads(value))); i += 1
        elif a == "--drop":
            doc.pop(args[i + 1], None); i += 1
        elif a == "--threads":
            threads = int(args[i + 1]); i += 1
        else:
            sys.exit("server-doc.py: unknown option " + a)
        i += 1
    digests = reference_digests(here)
    if prefix:
        replace_results(doc, digests, prefix)
    for r in doc["results"]:
        r["ops_per_sec"] *= scale
    if scale != 1.0 and not prefix:
        doc["scores"] = {k: v * scale for k, v in doc["scores"].items()}
    for name, factor in test_scales:
        for r in doc["results"]:
            if r["name"] == name:
                r["ops_per_sec"] *= factor
    if spread is not None:
        for r in doc["results"]:
            r["spread"] = spread
    if prefix or scale != 1.0 or test_scales or spread is not None:
        for r in doc["results"]:
            consistent(r)
    if prefix:
        doc["scores"] = node_scores(doc, list(digests))
        if bad_score:
            doc["scores"]["gmpbench.base.multiply"] *= 1.01
    run_of(doc, args)
    if threads:
        add_threads(doc, threads)
    for path, value in sets:
        parts = path.split(".")
        o = doc
        for p in parts[:-1]:
            o = o[int(p)] if isinstance(o, list) else o[p]
        last = parts[-1]
        if isinstance(o, list):
            o[int(last)] = value
        else:
            o[last] = value
    with open(out, "w") as f:
        f.write(json.dumps(doc, indent=1) + "\n")

main(sys.argv)
