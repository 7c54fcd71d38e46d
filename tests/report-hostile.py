# report-hostile.py IN OUT: a copy of the result document IN with hostile
# strings wherever a document carries text (CPU and OS names, compiler
# flags, a skip reason, a test name, a library name), for the report tests
# (t0800, t0810): every renderer must print them as inert text.
import json, sys

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)> \"q\" 'a' & |x| *y* \x1b[31mred"

d = json.load(open(sys.argv[1]))
d["system"]["cpu"]["name"] = "CPU " + HOSTILE
d["system"]["os"]["name"] = "</td></tr></table><h1>OS</h1>"
d["system"]["build"]["configure"]["cflags"] = "=HYPERLINK(\"http://evil.invalid\") -O2"
d["skipped"].append({"name": "gmpbench.base.<svg onload=alert(3)>", "reason": HOSTILE})
d["results"][0]["flags"].append("<b>flag</b>")
for row in d["comparisons"]:
    for e in row["entries"]:
        if e["library"] != "gmp":
            e["library"] = "lib<i>x</i>"
            break
    break
json.dump(d, open(sys.argv[2], "w"), indent=1)
