# Per-run rows and medians of bench/first-batch.sh runs (first batch, minus cluster ready, batch
# window, tail after the last batch, wall); usage: python3 bench/first-batch-collect.py OUT...
import glob, json, os, statistics, sys
rows = []
for d in sys.argv[1:]:
    for out in sorted(glob.glob(d + "/runs/*")):
        variant, n, rnd = os.path.basename(out).split("-")
        sub = json.load(open(out + "/run-info-fb.json"))["submittedAtMillis"]
        first = min(json.loads(l)["startedAtMillis"] for f in glob.glob(out + "/metrics/**/*", recursive=True)
                    if os.path.isfile(f) and not os.path.basename(f).startswith(".") for l in open(f) if l.strip())
        r = json.load(open(out + "/report-fb.json"))
        fb = (first - sub) / 1000
        ready = r["clusterStart"]["readyAfterSubmissionSeconds"]
        win = r["bound"]["windowMs"] / 1000
        rows.append(dict(round=os.path.basename(d) + "/" + rnd, variant=variant, n=int(n), fb=fb, net=fb - ready,
                         win=win, tail=r["wallSeconds"] - fb - win, wall=r["wallSeconds"], ok=r["reconciliation"]["ok"]))
print("| round | variant | records | first batch (s) | − ready (s) | batch window (s) | tail (s) | wall (s) | reconciled |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for x in rows:
    print("| {round} | {variant} | {n:,} | {fb:.2f} | {net:.2f} | {win:.1f} | {tail:.1f} | {wall:.1f} | {ok} |".format(**x))
print()
print("| variant | records | runs | first batch median (s) | − ready median (s) | tail median (s) | wall median (s) |")
print("|---|---:|---:|---:|---:|---:|---:|")
med = {}
for v in ("before", "after"):
    for n in sorted({x["n"] for x in rows}):
        sel = [x for x in rows if x["variant"] == v and x["n"] == n]
        m = {k: statistics.median(x[k] for x in sel) for k in ("fb", "net", "tail", "wall")}
        med[(v, n)] = m
        print(f"| {v} | {n:,} | {len(sel)} | {m['fb']:.2f} | {m['net']:.2f} | {m['tail']:.1f} | {m['wall']:.1f} |")
ns = sorted({x["n"] for x in rows})
print()
for v in ("before", "after"):
    a, b = med[(v, ns[0])], med[(v, ns[1])]
    print(f"{v}: 10x/1x first batch {b['fb']/a['fb']:.2f}, − ready {b['net']/a['net']:.2f}")
