#!/usr/bin/env python3
"""The runner of scripts/bench: generates the data, runs every line for every tool
(several runs, interleaved), checks each transfer's content, prints one markdown table.

It is started by scripts/bench, which installs the tools, builds Strata in release
mode and starts the servers; everything it needs comes from the environment:

  BENCH_STRATA, BENCH_STRATA_BENCH   the strata and strata-bench executables
  BENCH_RCLONE, BENCH_CURL           rclone and curl
  BENCH_APACHE_PORT, BENCH_NGINX_PORT
  BENCH_ROOT                         the folder both servers serve (Apache's www)
  BENCH_DATA                         where local data is generated (kept between runs)
  BENCH_WORK                         scratch space, removed afterwards by the caller
  BENCH_RUNS                         runs per tool and line (default 5)
  BENCH_BIG_MIB                      size of the big file (default 1024)
  BENCH_ONLY                         comma-separated line keys to run (default: all)
  STRATA_DAV_USER, STRATA_DAV_PASS   the servers' Basic credentials (the Nuxeo and Pydio servers' too)
  BENCH_OWNER                        user:group owning files the servers write (or empty)
  BENCH_NUXEO_URL, BENCH_PYDIO_URL   the loopback Nuxeo and Pydio servers, when started (their
                                     lines are in bench_np.py)
  BENCH_NP_MIB                       size of the big file of the Nuxeo and Pydio lines
  BENCH_TREE_FILES                   files in the tree of the transfer lines (bench_transfer.py; default 10000)
  STRATA_SERVERS_DIR                 the servers' folder: the transfer lines read the access logs there

`bench.py --generate` only makes the data (scripts/bench seeds the Nuxeo and Pydio servers with it).

Exit status: 0 when every transfer was right, 1 when a content check failed or a tool
failed; never because of a timing.
"""

import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

import bench_np
import bench_transfer

ENV = os.environ
RUNS = max(1, int(ENV.get("BENCH_RUNS", "5")))
BIG_MIB = max(1, int(ENV.get("BENCH_BIG_MIB", "1024")))
ROOT = ENV["BENCH_ROOT"]
DATA = ENV["BENCH_DATA"]
WORK = ENV["BENCH_WORK"]
USER = ENV["STRATA_DAV_USER"]
PASS = ENV["STRATA_DAV_PASS"]
OWNER = ENV.get("BENCH_OWNER", "")
STRATA = ENV["BENCH_STRATA"]
SBENCH = ENV["BENCH_STRATA_BENCH"]
RCLONE = ENV["BENCH_RCLONE"]
CURL = ENV.get("BENCH_CURL", "curl")
TIME = ENV.get("BENCH_TIME", "/usr/bin/time")
ONLY = [k for k in ENV.get("BENCH_ONLY", "").split(",") if k]
PORTS = {"apache": ENV["BENCH_APACHE_PORT"], "nginx": ENV.get("BENCH_NGINX_PORT", "")}

LIST_COUNT = 10_000
SMALL_COUNT = 1_000
SMALL_SIZE = 4096
TREE_FOLDERS = 100
TREE_FILES = 100
TOOLS = ["strata", "strata-bench", "rclone", "curl"]
PROPFIND4 = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/>'
             '<d:getcontentlength/><d:getlastmodified/><d:getetag/></d:prop></d:propfind>')

failures = []


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def fail(message):
    failures.append(message)
    log(f"CHECK FAILED: {message}")


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(4 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def tree_digest(folder):
    """Digest of every file's name and content in a folder, and the number of files."""
    digest = hashlib.sha256()
    names = sorted(os.listdir(folder))
    for name in names:
        digest.update(name.encode() + b"\0")
        with open(os.path.join(folder, name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest(), len(names)


def chown(path):
    if OWNER:
        subprocess.run(["chown", "-R", OWNER, path], check=True)


# ------------------------------------------------------------------ data

def random_file(mib):
    """DATA/big-<mib>MiB.bin, random bytes, made once."""
    path = os.path.join(DATA, f"big-{mib}MiB.bin")
    if not os.path.exists(path) or os.path.getsize(path) != mib << 20:
        log(f"generating a {mib} MiB random file")
        with open(path + ".tmp", "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
        os.replace(path + ".tmp", path)
    return path


def generate():
    os.makedirs(DATA, exist_ok=True)
    for mib in sorted({BIG_MIB, bench_np.NP_MIB}):
        random_file(mib)
    big = os.path.join(DATA, f"big-{BIG_MIB}MiB.bin")
    small = os.path.join(DATA, "small")
    if not os.path.isdir(small) or len(os.listdir(small)) != SMALL_COUNT:
        log(f"generating {SMALL_COUNT} files of {SMALL_SIZE} bytes")
        shutil.rmtree(small, ignore_errors=True)
        os.makedirs(small + ".tmp", exist_ok=True)
        for i in range(SMALL_COUNT):
            with open(os.path.join(small + ".tmp", f"s{i:04d}.bin"), "wb") as f:
                f.write(os.urandom(SMALL_SIZE))
        os.replace(small + ".tmp", small)
    # On the servers: the 10,000-entry folder and the big file.
    listing = os.path.join(ROOT, "list10k")
    if not os.path.isdir(listing):
        log(f"creating {LIST_COUNT} files to list")
        os.makedirs(listing)
        rng = random.Random(6)
        for i in range(LIST_COUNT):
            with open(os.path.join(listing, f"entry-{i:05d}.txt"), "wb") as f:
                f.write(b"x" * rng.randrange(0, 2048))
        chown(listing)
    tree = os.path.join(ROOT, "tree10k")
    if not os.path.isdir(tree):
        log(f"creating a tree of {TREE_FOLDERS} folders × {TREE_FILES} files")
        for d in range(TREE_FOLDERS):
            folder = os.path.join(tree, f"dir-{d:03d}")
            os.makedirs(folder)
            for i in range(TREE_FILES):
                with open(os.path.join(folder, f"file-{i:03d}.txt"), "wb") as f:
                    f.write(b"t" * (i % 97))
        chown(tree)
    small_served = os.path.join(ROOT, "small.bin")
    if not os.path.exists(small_served):
        with open(small_served + ".tmp", "wb") as f:
            f.write(random.Random(34).randbytes(SMALL_SIZE))
        os.replace(small_served + ".tmp", small_served)
        chown(small_served)
    served = os.path.join(ROOT, "big.bin")
    if not os.path.exists(served):
        try:
            os.link(big, served)
        except OSError:
            shutil.copyfile(big, served)
        os.chmod(served, 0o644)
    return big, small


# ------------------------------------------------------------------ running

class Tool:
    """One tool's way of doing one line: a command, an untimed preparation, a check."""

    def __init__(self, argv, prep=None, check=None, stdout=None, env=None):
        self.argv, self.prep, self.check, self.stdout, self.env = argv, prep, check, stdout, env
        self.times, self.rss = [], []
        # What the first run sent to Apache and nginx ({side: {"GET": n, ...}}), counted by
        # run_once unless the tool counts every run itself (bench_transfer.counted).
        self.requests = None
        self.counts_itself = False


def run_once(name, tool, run):
    if tool.prep:
        tool.prep()
    # Marked after the preparation, which is not the tool's work.
    logs = bench_transfer.AccessLogs() if run == 0 and not tool.counts_itself else None
    rss_file = os.path.join(WORK, "rss")
    out = open(tool.stdout, "wb") if tool.stdout else subprocess.DEVNULL
    err_path = os.path.join(WORK, "stderr")
    with open(err_path, "wb") as err:
        start = time.perf_counter()
        status = subprocess.call([TIME, "-f", "%M", "-o", rss_file] + tool.argv, stdout=out, stderr=err,
                                 env=tool.env or ENV)
        elapsed = time.perf_counter() - start
    if tool.stdout:
        out.close()
    if status != 0:
        with open(err_path, "rb") as err:
            detail = err.read().decode(errors="replace").strip().splitlines()[-3:]
        fail(f"{name}: exit status {status}: {' | '.join(detail)}")
        return
    with open(rss_file) as f:
        kib = int(f.read().strip().splitlines()[-1])
    tool.times.append(elapsed)
    tool.rss.append(kib / 1024)
    if logs:
        tool.requests = logs.since()
    if tool.check:
        problem = tool.check(run)
        if problem:
            fail(f"{name}: {problem}")


# {line title: {tool: requests}}: what each tool's first run of a line sent to Apache and nginx
# (from their access logs; the loopback Nuxeo and Pydio servers keep none).
REQUESTS = {}


def measure(title, tools):
    """Runs every tool RUNS times, rotating the order each run; keeps the first run's request count."""
    log(f"{title}: {RUNS} runs of {', '.join(tools)}")
    order = list(tools)
    for run in range(RUNS):
        for key in order:
            run_once(f"{title} / {key}", tools[key], run)
        order = order[1:] + order[:1]
    for key, tool in tools.items():
        if tool.requests is not None:
            REQUESTS.setdefault(title, {})[key] = sum(sum(c.values()) for c in tool.requests.values())
    return {key: tool for key, tool in tools.items()}


def requests_table():
    """The requests each tool's first run of each line sent, as a markdown table."""
    rows = [(title, counts) for title, counts in REQUESTS.items() if any(counts.values())]
    if not rows:
        return ""
    out = ["Requests per line, first run of each tool (Apache's and nginx's access logs):", "",
           "| work | " + " | ".join(TOOLS) + " |", "|---" * (len(TOOLS) + 1) + "|"]
    for title, counts in rows:
        out.append(f"| {title} | " + " | ".join(f"{counts[t]:,}" if t in counts else "" for t in TOOLS) + " |")
    return "\n".join(out)


# ------------------------------------------------------------------ lines

def dav_url(server, path=""):
    return f"http://127.0.0.1:{PORTS[server]}/{path}"


def strata_url(server, path=""):
    return f"webdav://{USER}@127.0.0.1:{PORTS[server]}/{path}"


def rclone_env(server):
    env = dict(ENV)
    obscured = subprocess.run([RCLONE, "obscure", PASS], capture_output=True, text=True, check=True).stdout.strip()
    env.update({
        "RCLONE_CONFIG": os.path.join(WORK, "rclone.conf"),
        "RCLONE_CONFIG_BENCH_TYPE": "webdav",
        "RCLONE_CONFIG_BENCH_URL": dav_url(server),
        "RCLONE_CONFIG_BENCH_VENDOR": "other",
        "RCLONE_CONFIG_BENCH_USER": USER,
        "RCLONE_CONFIG_BENCH_PASS": obscured,
    })
    open(env["RCLONE_CONFIG"], "a").close()
    return env


def strata_env():
    env = dict(ENV)
    env["STRATA_PASSWORD"] = PASS
    env["HOME"] = WORK  # no saved remotes or cache of the caller's
    return env


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def line_check(path, want):
    def check(_run):
        got = count_lines(path)
        return None if got == want else f"listed {got} lines, expected {want}"
    return check


def propfind_check(path, want):
    def check(_run):
        with open(path, "rb") as f:
            body = f.read()
        got = body.count(b"<D:response") + body.count(b"<d:response") - 1
        return None if got == want else f"the multistatus has {got} children, expected {want}"
    return check


def listing_line(server):
    out = lambda tool: os.path.join(WORK, f"ls-{server}-{tool}.out")
    env = rclone_env(server)
    tools = {
        "strata": Tool([STRATA, "ls", strata_url(server, "list10k/")], stdout=out("strata"),
                       check=line_check(out("strata"), LIST_COUNT), env=strata_env()),
        "strata-bench": Tool([SBENCH, "list", strata_url(server, "list10k/"), "--expect", str(LIST_COUNT)],
                             env=strata_env()),
        "rclone": Tool([RCLONE, "lsf", "--format", "tsp", "bench:list10k"], stdout=out("rclone"),
                       check=line_check(out("rclone"), LIST_COUNT), env=env),
        "curl": Tool([CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-X", "PROPFIND", "-H", "Depth: 1",
                      "-H", "Content-Type: application/xml", "--data", PROPFIND4, dav_url(server, "list10k/")],
                     stdout=out("curl"), check=propfind_check(out("curl"), LIST_COUNT)),
    }
    return measure(f"list {server}", tools)


def cached_listing_line(server):
    cache = os.path.join(WORK, f"cache-{server}")
    subprocess.run([STRATA, "ls", "--cache", cache, strata_url(server, "list10k/")], env=strata_env(),
                   stdout=subprocess.DEVNULL, check=True)
    out = os.path.join(WORK, f"ls-cache-{server}.out")
    tools = {
        "strata": Tool([STRATA, "ls", "--offline", "--cache", cache, strata_url(server, "list10k/")], stdout=out,
                       check=line_check(out, LIST_COUNT), env=strata_env()),
        "strata-bench": Tool([SBENCH, "list", "--cache", cache, strata_url(server, "list10k/"),
                              "--expect", str(LIST_COUNT)], env=strata_env()),
    }
    return measure(f"list from cache {server}", tools)


def tree_listing_line(server):
    """Listing a tree of 100 folders of 100 files (10,100 entries): `strata ls -R` against
    `rclone lsf -R` (8 checkers) and curl (one Depth: infinity PROPFIND)."""
    out = lambda tool: os.path.join(WORK, f"tree-ls-{server}-{tool}.out")
    entries = TREE_FOLDERS * (TREE_FILES + 1)
    env = rclone_env(server)
    tools = {
        "strata": Tool([STRATA, "ls", "-R", strata_url(server, "tree10k/")], stdout=out("strata"),
                       check=line_check(out("strata"), entries), env=strata_env()),
        "rclone": Tool([RCLONE, "lsf", "-R", "--format", "tsp", "bench:tree10k"], stdout=out("rclone"),
                       check=line_check(out("rclone"), entries), env=env),
        "curl": Tool([CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-X", "PROPFIND", "-H", "Depth: infinity",
                      "-H", "Content-Type: application/xml", "--data", PROPFIND4, dav_url(server, "tree10k/")],
                     stdout=out("curl"), check=propfind_check(out("curl"), entries)),
    }
    return measure(f"list tree {server}", tools)


def get_small_line(server):
    """One small file (4 KiB) fetched by a new process: what a round trip costs each tool. Strata
    keeps what it learnt of the server (its profile) between runs, as it does for a user."""
    want = sha256_file(os.path.join(ROOT, "small.bin"))
    env = rclone_env(server)

    def tool(key, argv, tool_env):
        target = os.path.join(WORK, f"small-{key}.bin")

        def prep():
            if os.path.exists(target):
                os.remove(target)

        def check(_run):
            if not os.path.exists(target):
                return "no downloaded file"
            return None if sha256_file(target) == want else "the downloaded file's SHA-256 differs"
        return Tool([a.replace("TARGET", target) for a in argv], prep=prep, check=check, env=tool_env)

    tools = {
        "strata": tool("strata", [STRATA, "get", strata_url(server, "small.bin"), "TARGET"], strata_env()),
        "strata-bench": tool("strata-bench", [SBENCH, "get", strata_url(server, "small.bin"), "--to", "TARGET"],
                             strata_env()),
        "rclone": tool("rclone", [RCLONE, "copyto", "bench:small.bin", "TARGET"], env),
        "curl": tool("curl", [CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-o", "TARGET",
                              dav_url(server, "small.bin")], ENV),
    }
    return measure(f"get small {server}", tools)


def recheck_line(server):
    """Re-checking an unchanged 10,000-file tree: Strata against its offline cache, rclone and
    curl (a Depth: infinity PROPFIND, one request) by listing it all."""
    cache = os.path.join(WORK, f"cache-tree-{server}")
    # Apache gives files changed within the last second a weak etag that turns strong later:
    # let a freshly made tree settle before the cache is filled.
    time.sleep(1.5)
    subprocess.run([STRATA, "cache", "refresh", "--cache", cache, strata_url(server, "tree10k/")], env=strata_env(),
                   stdout=subprocess.DEVNULL, check=True)
    entries = TREE_FOLDERS * (TREE_FILES + 1)
    out = lambda tool: os.path.join(WORK, f"tree-{server}-{tool}.out")

    def unchanged(path):
        def check(_run):
            with open(path) as f:
                text = f.read()
            return None if "rewritten: 0 entries" in text else f"the refresh changed entries: {text.strip()!r}"
        return check

    env = rclone_env(server)
    tools = {
        "strata": Tool([STRATA, "cache", "refresh", "--cache", cache, strata_url(server, "tree10k/")],
                       stdout=out("strata"), check=unchanged(out("strata")), env=strata_env()),
        "strata-bench": Tool([SBENCH, "refresh", "--cache", cache, strata_url(server, "tree10k/"), "--expect-changed", "0"],
                             env=strata_env()),
        "rclone": Tool([RCLONE, "lsf", "-R", "--format", "tsp", "bench:tree10k"], stdout=out("rclone"),
                       check=line_check(out("rclone"), entries), env=env),
        "curl": Tool([CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-X", "PROPFIND", "-H", "Depth: infinity",
                      "-H", "Content-Type: application/xml", "--data", PROPFIND4, dav_url(server, "tree10k/")],
                     stdout=out("curl"), check=propfind_check(out("curl"), entries)),
    }
    return measure(f"re-check tree {server}", tools)


def download_line(server, big):
    want = sha256_file(big)
    size = os.path.getsize(big)
    env = rclone_env(server)
    # One untimed download per tool to a file, digest-checked.
    log("download: checking each tool's content once")
    target = os.path.join(WORK, "download.bin")
    checks = {
        "strata": [STRATA, "get", strata_url(server, "big.bin"), target],
        "strata-bench": [SBENCH, "get", strata_url(server, "big.bin"), "--to", target],
        "rclone": [RCLONE, "copyto", "bench:big.bin", target],
        "curl": [CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-o", target, dav_url(server, "big.bin")],
    }
    for key, argv in checks.items():
        if os.path.exists(target):
            os.remove(target)
        status = subprocess.call(argv, env=env if key == "rclone" else strata_env(), stdout=subprocess.DEVNULL)
        if status != 0:
            fail(f"download {server} / {key}: exit status {status}")
        elif sha256_file(target) != want:
            fail(f"download {server} / {key}: the downloaded file's SHA-256 differs from the source")
    if os.path.exists(target):
        os.remove(target)
    tools = {
        "strata": Tool([STRATA, "get", strata_url(server, "big.bin"), "/dev/null"], env=strata_env()),
        "strata-bench": Tool([SBENCH, "get", strata_url(server, "big.bin"), "--size", str(size)], env=strata_env()),
        "rclone": Tool([RCLONE, "cat", "bench:big.bin"], env=env),
        "curl": Tool([CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-o", "/dev/null", dav_url(server, "big.bin")]),
    }
    return measure(f"download {server}", tools)


def upload_line(server, big):
    want = sha256_file(big)
    size = os.path.getsize(big)
    env = rclone_env(server)

    def tool(key, argv, tool_env):
        remote = os.path.join(ROOT, f"up-{key}.bin")

        def prep():
            if os.path.exists(remote):
                os.remove(remote)

        def check(run):
            if not os.path.exists(remote):
                return "no uploaded file on the server"
            if os.path.getsize(remote) != size:
                return f"the uploaded file has {os.path.getsize(remote)} bytes, expected {size}"
            if run == 0 and sha256_file(remote) != want:
                return "the uploaded file's SHA-256 differs from the source"
            return None
        return Tool(argv, prep=prep, check=check, env=tool_env)

    tools = {
        "strata": tool("strata", [STRATA, "put", big, strata_url(server, "up-strata.bin")], strata_env()),
        "strata-bench": tool("strata-bench", [SBENCH, "put", big, strata_url(server, "up-strata-bench.bin")],
                             strata_env()),
        "rclone": tool("rclone", [RCLONE, "copyto", big, "bench:up-rclone.bin"], env),
        "curl": tool("curl", [CURL, "-sS", "--fail", "-u", f"{USER}:{PASS}", "-T", big,
                              dav_url(server, "up-curl.bin")], ENV),
    }
    result = measure(f"upload {server}", tools)
    for key in tools:
        path = os.path.join(ROOT, f"up-{key}.bin")
        if os.path.exists(path):
            os.remove(path)
    return result


def small_uploads_line(server, small):
    want = tree_digest(small)
    env = rclone_env(server)
    names = sorted(os.listdir(small))
    config = os.path.join(WORK, f"curl-small-{server}.conf")
    with open(config, "w") as f:
        os.chmod(config, 0o600)
        f.write(f'user = "{USER}:{PASS}"\n')
        for name in names:
            f.write(f'upload-file = "{os.path.join(small, name)}"\nurl = "{dav_url(server, "small-curl/" + name)}"\n')

    def tool(key, argv, tool_env):
        remote = os.path.join(ROOT, f"small-{key}")

        def prep():
            shutil.rmtree(remote, ignore_errors=True)
            os.makedirs(remote)
            chown(remote)

        def check(run):
            got = tree_digest(remote)
            if got[1] != len(names):
                return f"{got[1]} files on the server, expected {len(names)}"
            return None if got == want else "the uploaded files differ from the sources"
        return Tool(argv, prep=prep, check=check, env=tool_env)

    tools = {
        "strata": tool("strata", [STRATA, "put", "--transfers", "4", small, strata_url(server, "small-strata")],
                       strata_env()),
        "strata-bench": tool("strata-bench", [SBENCH, "put-many", "--transfers", "4", small,
                                              strata_url(server, "small-strata-bench")], strata_env()),
        "rclone": tool("rclone", [RCLONE, "copy", "--transfers", "4", "--webdav-pacer-min-sleep", "0", small,
                                  "bench:small-rclone"], env),
        "curl": tool("curl", [CURL, "-sS", "--fail", "-Z", "--parallel-max", "4", "-K", config], ENV),
    }
    result = measure(f"small uploads {server}", tools)
    for key in tools:
        shutil.rmtree(os.path.join(ROOT, f"small-{key}"), ignore_errors=True)
    return result


# ------------------------------------------------------------------ table

def cell(tool):
    if tool is None or not tool.times:
        return "—"
    return f"{fmt(min(tool.times))} / {fmt(statistics.median(tool.times))} · {max(tool.rss):.0f} MiB"


def fmt(seconds):
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def ratio(a, b):
    if a is None or b is None or not a.times or not b.times:
        return "—"
    return f"{min(a.times) / min(b.times):.2f}"


def table(rows):
    lines = [
        f"Min / median of {RUNS} runs · peak RSS; ratios of the minimums (CLI = `strata`, API = `strata-bench`).",
        "",
        "| work | strata (CLI) | strata-bench (API) | rclone | curl | CLI/rclone | CLI/curl | API/rclone | API/curl |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for title, tools in rows:
        g = tools.get
        lines.append(
            f"| {title} | {cell(g('strata'))} | {cell(g('strata-bench'))} | {cell(g('rclone'))} | {cell(g('curl'))} "
            f"| {ratio(g('strata'), g('rclone'))} | {ratio(g('strata'), g('curl'))} "
            f"| {ratio(g('strata-bench'), g('rclone'))} | {ratio(g('strata-bench'), g('curl'))} |")
    return "\n".join(lines)


def goals(rows):
    """The issue's goals, read from this run (informational: timings never fail the bench)."""
    found = dict(rows)
    out = []

    def best(tools):
        timed = [tools[k] for k in ("strata", "strata-bench") if tools.get(k) and tools[k].times]
        return min(timed, key=lambda t: min(t.times)) if timed else None

    def check(title, label, test):
        tools = found.get(title)
        if not tools:
            return
        strata = best(tools)
        if strata is None:
            return
        ok, detail = test(strata, tools)
        out.append(f"- {label}: {'met' if ok else 'NOT met'} ({detail})")

    def r(a, b):
        return min(a.times) / min(b.times) if b and b.times else float("nan")

    check(TITLES["list-apache"], "listing 10k ≤ 0.5 × rclone and ≤ 2 × curl",
          lambda s, t: (r(s, t["rclone"]) <= 0.5 and r(s, t["curl"]) <= 2,
                        f"{r(s, t['rclone']):.2f} × rclone, {r(s, t['curl']):.2f} × curl"))
    for key in ("download-apache", "upload-apache"):
        check(TITLES[key], f"{key.split('-')[0]} 1 GiB ≤ 1.1 × curl, RSS ≤ 64 MiB",
              lambda s, t: (r(s, t["curl"]) <= 1.1 and max(s.rss) <= 64,
                            f"{r(s, t['curl']):.2f} × curl, {max(s.rss):.0f} MiB"))
    check(TITLES["small-apache"], "1,000 small uploads ≤ 1.0 × curl (4 parallel)",
          lambda s, t: (r(s, t["curl"]) <= 1.0, f"{r(s, t['curl']):.2f} × curl"))
    if ENV.get("BENCH_RTT_MS"):
        # Issue 34's goals over a slow network, on the medians of this run.
        def m(a, b):
            return statistics.median(a.times) / statistics.median(b.times) if b and b.times else float("nan")

        def who(s, tools):
            return "CLI" if s is tools.get("strata") else "API"
        rtt = ENV["BENCH_RTT_MS"]
        check(TITLES["get-small-apache"], f"at {rtt} ms: get of one small file ≤ 1.1 × curl (medians)",
              lambda s, t: (m(s, t["curl"]) <= 1.1, f"{who(s, t)} {m(s, t['curl']):.2f} × curl"))
        check(TITLES["list-tree-apache"], f"at {rtt} ms: listing a tree of 10,000 files in 100 folders ≤ 0.5 × rclone (medians)",
              lambda s, t: (m(s, t["rclone"]) <= 0.5, f"{who(s, t)} {m(s, t['rclone']):.2f} × rclone, {m(s, t['curl']):.2f} × curl"))
        check(TITLES["small-apache"], f"at {rtt} ms: 1,000 small uploads ≤ 0.5 × rclone (medians)",
              lambda s, t: (m(s, t["rclone"]) <= 0.5, f"{who(s, t)} {m(s, t['rclone']):.2f} × rclone"))
    return "\n".join(out)


TITLES = {
    "list-apache": "list 10,000 entries, Depth 1 (Apache)",
    "list-nginx": "list 10,000 entries, Depth 1 (nginx)",
    "cache-apache": "list 10,000 entries from the offline cache",
    "get-small-apache": f"get one {SMALL_SIZE // 1024} KiB file, a new process each time (Apache)",
    "list-tree-apache": f"list a tree of {TREE_FOLDERS * TREE_FILES:,} files in {TREE_FOLDERS} folders (Apache)",
    "recheck-apache": f"re-check an unchanged tree of {TREE_FOLDERS * TREE_FILES:,} files in {TREE_FOLDERS} folders (Apache)",
    "download-apache": f"download {BIG_MIB} MiB (Apache, to /dev/null)",
    "upload-apache": f"upload {BIG_MIB} MiB (Apache)",
    "small-apache": f"upload {SMALL_COUNT} × 4 KiB files, 4 parallel (Apache)",
}


def main():
    os.makedirs(WORK, exist_ok=True)
    big, small = generate()
    if sys.argv[1:] == ["--generate"]:
        return 0
    lines = [
        ("list-apache", lambda: listing_line("apache")),
        ("list-nginx", lambda: listing_line("nginx") if PORTS["nginx"] else None),
        ("cache-apache", lambda: cached_listing_line("apache")),
        ("get-small-apache", lambda: get_small_line("apache")),
        ("list-tree-apache", lambda: tree_listing_line("apache")),
        ("recheck-apache", lambda: recheck_line("apache")),
        ("download-apache", lambda: download_line("apache", big)),
        ("upload-apache", lambda: upload_line("apache", big)),
        ("small-apache", lambda: small_uploads_line("apache", small)),
    ]
    for key, title, work in bench_np.lines(sys.modules[__name__]) + bench_transfer.lines(sys.modules[__name__]):
        TITLES[key] = title
        lines.append((key, work))
    rows = []
    for key, work in lines:
        if ONLY and key not in ONLY:
            continue
        tools = work()
        if tools:
            rows.append((TITLES[key], tools))
    print()
    print(table(rows))
    print()
    print("Goals (issue 6), from this run:")
    print(goals(rows) or "- (no goal line was run)")
    requests = requests_table()
    if requests:
        print()
        print(requests)
    rtt = ENV.get("BENCH_RTT_MS")
    if rtt:
        rate = ENV.get("BENCH_RATE_MBIT")
        print(f"\nNetwork: every server behind scripts/lib/delay-proxy.py, {rtt} ms round trip"
              + (f", {rate} Mbit/s per connection and direction" if rate else ", no bandwidth cap") + ".")
    transfers = bench_transfer.report()
    if transfers:
        print()
        print(transfers)
    if failures:
        print(f"\n{len(failures)} check(s) failed:", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
