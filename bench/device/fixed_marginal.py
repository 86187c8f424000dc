#!/usr/bin/env python3
"""Fixed seconds and marginal CPU per document, per parallelism, builds side by side (issue 38).

Runs `embed` with the benchmark fixture model on N and K*N unique documents at each parallelism,
builds interleaved (each size and P: every build back to back). Per run: the process's wall (fork
to exit), the job-wide wall from the run report (submission to the job's end), the process's CPU
(children's user+sys from getrusage), first and last batch after submission. Per build and P:
  fixed seconds  = the job-wide wall's intercept at 0 documents: (K*T_N - T_KN) / (K-1)
  marginal us/doc (wall) = (T_KN - T_N) / ((K-1) N); marginal items/s = its inverse
  marginal us CPU/doc    = (C_KN - C_N) / ((K-1) N)
With --rounds R every (P, size) is run R times per build, builds interleaved within each round
(round r: base, main, ...; the next round the other way round), and each figure above uses the
median over the rounds of T and C. With --cds each build's warm-up run writes a class-data
archive (-XX:ArchiveClassesAtExit) that its timed runs map (-XX:SharedArchiveFile), as
bin/flink-inference does after the README's -Prun command: the JVM's and the embedded cluster's
class loading leave the fixed seconds. A build whose class path has directories gets no archive
(the JVM dumps none): machine.json says which builds had one.
Usage: fixed_marginal.py --java JAVA --jvm-options FILE --classpath BUILD=CP ... --card CARD
       --corpus-n FILE --corpus-kn FILE --k K --parallelism 1 2 16 --out DIR [--conf BUILD=DIR]
       [--args BUILD='--share-session=false'] (two names for one class path compare flags)
"""
import argparse, collections, json, os, re, resource, shlex, statistics, subprocess, sys, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("--java", required=True)
ap.add_argument("--jvm-options", required=True)
ap.add_argument("--log4j", required=True)
ap.add_argument("--classpath", nargs="+", required=True, help="BUILD=CLASSPATH")
ap.add_argument("--conf", nargs="*", default=[], help="BUILD=FLINK_CONF_DIR")
ap.add_argument("--args", nargs="*", default=[], help="BUILD=FLAGS: more embed flags for that build's runs")
ap.add_argument("--card", required=True)
ap.add_argument("--corpus-n", required=True)
ap.add_argument("--corpus-kn", required=True)
ap.add_argument("--k", type=int, default=3)
ap.add_argument("--parallelism", nargs="+", type=int, required=True)
ap.add_argument("--heap", default="24g")
ap.add_argument("--timeout", type=int, default=300)
ap.add_argument("--out", required=True)
ap.add_argument("--no-warmup", action="store_true")
ap.add_argument("--sizes", nargs="+", default=["n", "kn"])
ap.add_argument("--rounds", type=int, default=1)
ap.add_argument("--cds", action="store_true", help="class-data archive per build, from its warm-up run")
ap.add_argument("--threads", action="store_true",
                help="per run, CPU and minor page faults by thread name (/proc/<pid>/task/*/stat, polled)")
a = ap.parse_args()
builds = dict(c.split("=", 1) for c in a.classpath)
confs = dict(c.split("=", 1) for c in a.conf)
flags = {b: shlex.split(f) for b, f in (c.split("=", 1) for c in a.args)}
jvm = open(a.jvm_options).read().split()
jvm = [o for o in jvm if not o.startswith("-Xmx")] + ["-Xmx" + a.heap]
count = lambda f: sum(1 for _ in open(f))
sizes = {"n": (a.corpus_n, count(a.corpus_n)), "kn": (a.corpus_kn, count(a.corpus_kn))}
os.makedirs(a.out, exist_ok=True)
rows = []

archives = {}  # build -> its class-data archive, once its warm-up run wrote one

def cds_options(build, warmup):
    if not a.cds:
        return []
    archive = os.path.abspath(f"{a.out}/{build}.jsa")
    quiet = ["-Xlog:cds=off", "-Xlog:cds+dynamic=off"]
    if warmup:
        return quiet + [f"-XX:ArchiveClassesAtExit={archive}"]
    return quiet + [f"-XX:SharedArchiveFile={archive}"] if build in archives else []

def by_thread(proc, into):
    """Polls proc's threads until it exits: the last CPU seconds and minor faults seen per thread id."""
    tick = os.sysconf("SC_CLK_TCK")
    while proc.poll() is None:
        try:
            for tid in os.listdir(f"/proc/{proc.pid}/task"):
                try:
                    stat = open(f"/proc/{proc.pid}/task/{tid}/stat").read()
                except OSError:
                    continue
                name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
                into[tid] = (name, (int(fields[11]) + int(fields[12])) / tick, int(fields[7]))
        except OSError:
            pass
        time.sleep(0.1)

def thread_table(seen):
    """CPU seconds and minor faults summed by thread name (digits folded), most CPU first."""
    groups = collections.defaultdict(lambda: [0, 0.0, 0])
    for name, cpu, faults in seen.values():
        g = groups[re.sub(r"\d+", "#", name)]
        g[0] += 1; g[1] += cpu; g[2] += faults
    return [dict(threads=n, name=k, cpuSeconds=round(c, 2), minorFaults=f)
            for k, (n, c, f) in sorted(groups.items(), key=lambda kv: -kv[1][1])]

def run(build, p, size, rnd=0, warmup=False):
    corpus, docs = sizes[size]
    out = f"/tmp/fm-out-{build}-{p}-{size}"
    env = dict(os.environ, FLINK_PLUGINS_DIR="/tmp/fm-noplugins")
    os.makedirs(env["FLINK_PLUGINS_DIR"], exist_ok=True)
    env.pop("FLINK_CONF_DIR", None)
    if build in confs:
        env["FLINK_CONF_DIR"] = confs[build]
    cmd = [a.java, *jvm, *cds_options(build, warmup), f"-Dlog4j.configurationFile={a.log4j}", "-cp", builds[build],
           "io.github.flinkinfer.jobs.cli.Main", "embed", "--input", corpus, "--model", a.card,
           "--output", out, "--run-id", "r", "--max-length", "128", "--parallelism", str(p),
           "--overwrite", "--progress-seconds", "600", *flags.get(build, [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(f"{a.out}/{build}-p{p}-{size}-r{rnd}.out", "w") as log:
        try:
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
            seen = {}
            poller = threading.Thread(target=by_thread, args=(proc, seen), daemon=True)
            if a.threads:
                poller.start()
            rc = proc.wait(timeout=a.timeout)
        except subprocess.TimeoutExpired:
            proc.kill(); proc.wait()
            rc = 124
        if a.threads:
            poller.join()
            json.dump(thread_table(seen), open(f"{a.out}/{build}-p{p}-{size}-r{rnd}.threads.json", "w"), indent=0)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    row = dict(build=build, p=p, size=size, round=rnd, docs=docs, rc=rc, processSeconds=round(wall, 3), cpuSeconds=round(cpu, 3),
               sysSeconds=round(after.ru_stime - before.ru_stime, 3), minorFaults=after.ru_minflt - before.ru_minflt)
    try:
        r = json.load(open(f"{out}/report-r.json"))
        t = r["series"]["timeline"]
        row.update(jobSeconds=r["wallSeconds"], itemsPerSecond=round(r["itemsPerSecond"]), succeeded=r["succeeded"],
                   firstBatchSeconds=t["firstBatchSeconds"], lastBatchSeconds=t["lastBatchSeconds"],
                   firstInputSeconds=t.get("firstInputSeconds"),  # None before 2026-12-06
                   tailSeconds=round(r["wallSeconds"] - t["lastBatchSeconds"], 3), realTokens=r["realTokens"])
        cluster = r.get("clusterStart") or {}  # the embedded cluster's start, and how long the job waited for it
        row.update(clusterSeconds=cluster.get("seconds"), clusterReadyAfterSubmission=cluster.get("readyAfterSubmissionSeconds"))
    except Exception as e:  # a failed run has no report: its row says so
        row["error"] = repr(e)[:200]
    subprocess.run(["rm", "-rf", out])
    print(json.dumps(row), flush=True)
    rows.append(row)

for build in ([] if a.no_warmup and not a.cds else builds):  # warm-up, not counted: the page cache holds the jars and the corpora after it
    run(build, 2, "n", warmup=True); rows.pop()
    if a.cds and os.path.exists(f"{a.out}/{build}.jsa"):
        archives[build] = f"{a.out}/{build}.jsa"
json.dump({"cds": a.cds, "archives": sorted(archives)}, open(f"{a.out}/machine.json", "w"))
for rnd in range(a.rounds):
    for p in a.parallelism:
        for size in a.sizes:
            for build in (list(builds) if rnd % 2 == 0 else list(builds)[::-1]):
                run(build, p, size, rnd)
json.dump(rows, open(f"{a.out}/runs.json", "w"), indent=1)

if a.sizes != ["n", "kn"]:
    sys.exit(0)
def median_row(build, p, size):
    """The median over the rounds of every timed figure (a single run: that run)."""
    ok = [r for r in rows if r["build"] == build and r["p"] == p and r["size"] == size and "jobSeconds" in r]
    if not ok:
        bad = [r for r in rows if r["build"] == build and r["p"] == p and r["size"] == size]
        return {"rc": bad[-1]["rc"] if bad else None}
    m = dict(ok[0])
    for k in ("jobSeconds", "cpuSeconds", "firstBatchSeconds", "tailSeconds", "processSeconds"):
        m[k] = statistics.median(r[k] for r in ok)
    known = [r["firstInputSeconds"] for r in ok if r.get("firstInputSeconds") is not None]
    m["firstInputSeconds"] = statistics.median(known) if known else None
    m["itemsPerSecond"] = round(m["docs"] / m["jobSeconds"])
    m["runs"] = len(ok)
    return m

lines = ["| build | P | runs | job-wide items/s (N / KN) | first input s (KN) | first batch s | tail s (KN) | fixed s | marginal items/s | marginal µs CPU/doc |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
fixed_by = {}
for p in a.parallelism:
    for build in builds:
        n, kn = median_row(build, p, "n"), median_row(build, p, "kn")
        if "jobSeconds" not in n or "jobSeconds" not in kn:
            lines.append(f"| {build} | {p} | | failed (rc {n.get('rc')} / {kn.get('rc')}) | | | | | | |")
            continue
        extra = kn["docs"] - n["docs"]
        fixed = (kn["docs"] * n["jobSeconds"] - n["docs"] * kn["jobSeconds"]) / extra
        marg = extra / (kn["jobSeconds"] - n["jobSeconds"]) if kn["jobSeconds"] > n["jobSeconds"] else float("nan")
        cpu = (kn["cpuSeconds"] - n["cpuSeconds"]) / extra * 1e6
        fixed_by[build, p] = fixed
        first_input = "—" if kn["firstInputSeconds"] is None else f"{kn['firstInputSeconds']:.2f}"
        lines.append(f"| {build} | {p} | {n['runs']}+{kn['runs']} | {n['itemsPerSecond']:,} / {kn['itemsPerSecond']:,} | {first_input} | {n['firstBatchSeconds']:.2f} / {kn['firstBatchSeconds']:.2f}"
                     f" | {kn['tailSeconds']:.2f} | {fixed:.2f} | {marg:,.0f} | {cpu:.0f} |")
ps = sorted(a.parallelism)
for build in builds:  # what grows with P: the widest P's fixed seconds over the narrowest but one's (P=2 of 1, 2, 16)
    lo, hi = (ps[1] if len(ps) > 2 else ps[0]), ps[-1]
    if lo != hi and (build, lo) in fixed_by and (build, hi) in fixed_by and fixed_by[build, lo] > 0:
        lines.append(f"\n{build}: fixed seconds P={hi} / P={lo} = {fixed_by[build, hi] / fixed_by[build, lo]:.2f}x")
open(f"{a.out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
