"""The transfer lines of scripts/bench (issue 17): a tree copied from Apache to nginx, checked
between them and synced again unchanged, by `strata copy|check|sync` and by
`rclone copy|check|sync`.

The tree is `BENCH_TREE_FILES` files (default 10,000) in folders of 100 (`xfer-N/dir-DDD/file-FFF.bin`,
0-4 KiB of seeded random bytes each), made in the folder Apache and nginx both serve. Apache is
the source and nginx the destination of every line; both servers log every request (method,
status and `Depth` header), and the lines count the requests each tool sent to each side.

Like for like:
- Both tools send 4 files at once (`--transfers 4`) and list 4 folders at once (both are given
  `--checkers 4`; their defaults are 8), and rclone's pacer
  is off (`--webdav-pacer-min-sleep 0`, as in the small-uploads line).
- Neither server declares a digest, and neither lets a client set a modified time, so both tools
  compare files by size alone: Strata's rule prints `compared by size` (its size-and-modified-time
  rule needs a destination that can set times), and rclone's check compares sizes and common hashes
  (none here) while its copy and sync compare sizes (a WebDAV remote of vendor `other` has no
  modified-time precision).

Content checks (exit 1 on failure, never on a timing):
- copy: every run, the destination's names and contents (walked on disk) equal the source's;
- check: every run, Strata prints `N matching, 0 missing, 0 extra, 0 differing` and rclone
  `0 differences found` with `N matching files`, both with exit status 0;
- re-sync: every run, neither side received a write (no PUT, MKCOL, DELETE, MOVE or COPY in
  the access logs), and the destination's content still equals the source's.

Used by bench.py: `lines(bench)` gets the bench module and returns (key, title, work) per line;
`report()` gives the request counts and the goals read from the run.
"""

import hashlib
import os
import random
import shutil
import statistics
import subprocess
import time

ENV = os.environ
TREE_FILES = max(1, int(ENV.get("BENCH_TREE_FILES", "10000")))
PER_FOLDER = 100
FOLDERS = (TREE_FILES + PER_FOLDER - 1) // PER_FOLDER
TREE = f"xfer-{TREE_FILES}"
TRANSFERS = "4"
WRITES = {"PUT", "MKCOL", "DELETE", "MOVE", "COPY", "PROPPATCH"}

# (line key, tool) -> {"apache": Counter, "nginx": Counter} of the tool's first run.
REQUESTS = {}
RESULTS = {}


def titles():
    n = f"{TREE_FILES:,}"
    return {
        "copy-tree": f"copy a tree of {n} files in {FOLDERS} folders, Apache → nginx, 4 transfers",
        "check-tree": f"check an identical tree of {n} files in {FOLDERS} folders, Apache vs nginx",
        "resync-tree": f"sync again an unchanged tree of {n} files in {FOLDERS} folders, Apache → nginx",
    }


# ------------------------------------------------------------------ data and checks

def generate(b):
    """ROOT/xfer-N, made once per server start; returns its digest and file count."""
    tree = os.path.join(b.ROOT, TREE)
    if not os.path.isdir(tree):
        b.log(f"creating a tree of {TREE_FILES} files in {FOLDERS} folders")
        rng = random.Random(17)
        for i in range(TREE_FILES):
            folder = os.path.join(tree, f"dir-{i // PER_FOLDER:03d}")
            if i % PER_FOLDER == 0:
                os.makedirs(folder)
            with open(os.path.join(folder, f"file-{i % PER_FOLDER:03d}.bin"), "wb") as f:
                f.write(rng.randbytes(rng.randrange(0, 4096)))
        b.chown(tree)
        # Apache gives files changed within the last second weak etags: let the tree settle.
        time.sleep(1.5)
    return tree_digest(tree)


def tree_digest(root):
    """Digest of every file's relative path and content below `root`, and the number of files."""
    digest = hashlib.sha256()
    count = 0
    for folder, subfolders, files in os.walk(root):
        subfolders.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            digest.update(os.path.relpath(path, root).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read())
            digest.update(b"\0")
            count += 1
    return digest.hexdigest(), count


def same_tree(want, root):
    if not os.path.isdir(root):
        return f"no folder {os.path.basename(root)} on the server"
    got = tree_digest(root)
    if got[1] != want[1]:
        return f"{got[1]} files on the destination, expected {want[1]}"
    return None if got == want else "the destination's names or contents differ from the source's"


# ------------------------------------------------------------------ request counting

class AccessLogs:
    """Where Apache's and nginx's access logs end; `since()` parses what was added after."""

    def __init__(self):
        servers = ENV["STRATA_SERVERS_DIR"]
        self.paths = {"apache": os.path.join(servers, "run", "apache-access.log"),
                      "nginx": os.path.join(servers, "nginx", "bench-access.log")}
        self.mark()

    def mark(self):
        self.offsets = {side: (os.path.getsize(p) if os.path.exists(p) else 0) for side, p in self.paths.items()}

    def since(self):
        """{side: {"PROPFIND 1": n, "GET": n, ...}} of the requests logged since the mark.
        Both logs end in the request line in quotes and then the Depth header (`-` when none)."""
        time.sleep(0.2)  # a server logs a request after its response
        counts = {}
        for side, path in self.paths.items():
            count = {}
            with open(path, "rb") as f:
                f.seek(self.offsets[side])
                for raw in f:
                    line = raw.decode(errors="replace").rstrip("\n")
                    try:
                        request = line.split('"')[1]
                        depth = line.rsplit(" ", 1)[1].strip('"')
                    except IndexError:
                        continue
                    method = request.split(" ", 1)[0]
                    key = f"{method} {depth}" if method == "PROPFIND" else method
                    count[key] = count.get(key, 0) + 1
            counts[side] = count
        return counts


def describe(count):
    total = sum(count.values())
    parts = []
    for key in sorted(count, key=lambda k: (-count[k], k)):
        label = key.replace("PROPFIND 1", "PROPFIND Depth 1").replace("PROPFIND 0", "PROPFIND Depth 0")
        label = label.replace("PROPFIND infinity", "PROPFIND Depth infinity").replace("PROPFIND -", "PROPFIND (no Depth)")
        parts.append(f"{count[key]:,} {label}")
    return f"{total:,}" + (f" ({', '.join(parts)})" if parts else "")


def writes(counts):
    return sum(n for side in counts.values() for key, n in side.items() if key.split(" ")[0] in WRITES)


# ------------------------------------------------------------------ tools

def rclone_env(b):
    env = dict(ENV)
    obscured = subprocess.run([b.RCLONE, "obscure", b.PASS], capture_output=True, text=True, check=True).stdout.strip()
    env["RCLONE_CONFIG"] = os.path.join(b.WORK, "rclone.conf")
    for remote, server in (("SRC", "apache"), ("DST", "nginx")):
        env.update({
            f"RCLONE_CONFIG_{remote}_TYPE": "webdav",
            f"RCLONE_CONFIG_{remote}_URL": b.dav_url(server),
            f"RCLONE_CONFIG_{remote}_VENDOR": "other",
            f"RCLONE_CONFIG_{remote}_USER": b.USER,
            f"RCLONE_CONFIG_{remote}_PASS": obscured,
        })
    open(env["RCLONE_CONFIG"], "a").close()
    return env


RCLONE_FLAGS = ["--transfers", TRANSFERS, "--checkers", TRANSFERS, "--webdav-pacer-min-sleep", "0"]


def counted(b, line, key, tool, check):
    """`tool` whose runs are request-counted: the first run's counts are kept for the report;
    `check(run, counts)` checks each run with its counts."""
    logs = AccessLogs()
    prep = tool.prep

    def prep_and_mark():
        if prep:
            prep()
        logs.mark()

    def check_with_counts(run):
        counts = logs.since()
        if run == 0:
            REQUESTS[(line, key)] = counts
            tool.requests = counts
        return check(run, counts)
    tool.prep, tool.check = prep_and_mark, check_with_counts
    tool.counts_itself = True  # bench.run_once does not count these a second time
    return tool


def copy_line(b):
    want = generate(b)
    env = rclone_env(b)
    source = b.strata_url("apache", TREE)

    def tool(key, argv, tool_env):
        target = os.path.join(b.ROOT, f"copy-{key}")

        def prep():
            shutil.rmtree(target, ignore_errors=True)

        def check(_run, counts):
            return same_tree(want, target)
        return counted(b, "copy-tree", key, b.Tool(argv, prep=prep, env=tool_env), check)

    tools = {
        "strata": tool("strata", [b.STRATA, "copy", "--transfers", TRANSFERS, "--checkers", TRANSFERS, source, b.strata_url("nginx", "copy-strata")],
                       b.strata_env()),
        "rclone": tool("rclone", [b.RCLONE, "copy"] + RCLONE_FLAGS + [f"SRC:{TREE}", "DST:copy-rclone"], env),
    }
    result = b.measure("copy tree", tools)
    for key in tools:
        shutil.rmtree(os.path.join(b.ROOT, f"copy-{key}"), ignore_errors=True)
    RESULTS["copy-tree"] = result
    return result


def check_line(b):
    want = generate(b)
    env = rclone_env(b)
    copy = os.path.join(b.ROOT, f"check-{TREE}")
    if not os.path.isdir(copy):
        shutil.copytree(os.path.join(b.ROOT, TREE), copy)
        b.chown(copy)
    if same_tree(want, copy):
        b.fail("check tree: the copy to check against differs from the source")
    out = lambda key: os.path.join(b.WORK, f"check-{key}.out")
    stderr = os.path.join(b.WORK, "stderr")  # run_once's, read right after the run

    def strata_check(_run, counts):
        with open(out("strata")) as f:
            text = f.read()
        expected = f"{want[1]} matching, 0 missing, 0 extra, 0 differing"
        if expected not in text or "compared by size" not in text:
            return f"strata check printed {text.strip()[-200:]!r}, expected {expected!r} by size"
        return "the check wrote to a server" if writes(counts) else None

    def rclone_check(_run, counts):
        with open(stderr) as f:
            text = f.read()
        if "0 differences found" not in text or f"{want[1]} matching files" not in text:
            return f"rclone check printed {text.strip()[-200:]!r}"
        return "the check wrote to a server" if writes(counts) else None

    tools = {
        "strata": counted(b, "check-tree", "strata", b.Tool(
            [b.STRATA, "check", "--checkers", TRANSFERS, b.strata_url("apache", TREE), b.strata_url("nginx", f"check-{TREE}")],
            stdout=out("strata"), env=b.strata_env()), strata_check),
        "rclone": counted(b, "check-tree", "rclone", b.Tool(
            [b.RCLONE, "check"] + RCLONE_FLAGS + [f"SRC:{TREE}", f"DST:check-{TREE}"], env=env), rclone_check),
    }
    result = b.measure("check tree", tools)
    RESULTS["check-tree"] = result
    return result


def resync_line(b):
    want = generate(b)
    env = rclone_env(b)
    source = b.strata_url("apache", TREE)
    argv = {
        "strata": [b.STRATA, "sync", "--transfers", TRANSFERS, "--checkers", TRANSFERS, source, b.strata_url("nginx", "sync-strata")],
        "rclone": [b.RCLONE, "sync"] + RCLONE_FLAGS + [f"SRC:{TREE}", "DST:sync-rclone"],
    }
    envs = {"strata": b.strata_env(), "rclone": env}
    # The first sync, untimed: each tool fills its own destination.
    for key in argv:
        shutil.rmtree(os.path.join(b.ROOT, f"sync-{key}"), ignore_errors=True)
        if subprocess.call(argv[key], env=envs[key], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
            b.fail(f"resync tree / {key}: the first sync failed")
    time.sleep(1.5)  # Apache's weak etags of fresh files (see generate)
    out = os.path.join(b.WORK, "resync-strata.out")

    def check_for(key):
        target = os.path.join(b.ROOT, f"sync-{key}")

        def check(_run, counts):
            if writes(counts):
                return f"the sync of an unchanged tree wrote: {counts}"
            if key == "strata":
                with open(out) as f:
                    text = f.read()
                if f"copied 0 files (0 B), created 0 folders, deleted 0, {want[1]} unchanged, 0 failed" not in text:
                    return f"strata sync printed {text.strip()[-200:]!r}"
            return same_tree(want, target)
        return check

    tools = {
        "strata": counted(b, "resync-tree", "strata", b.Tool(argv["strata"], stdout=out, env=envs["strata"]), check_for("strata")),
        "rclone": counted(b, "resync-tree", "rclone", b.Tool(argv["rclone"], env=env), check_for("rclone")),
    }
    result = b.measure("sync unchanged tree", tools)
    for key in tools:
        shutil.rmtree(os.path.join(b.ROOT, f"sync-{key}"), ignore_errors=True)
    RESULTS["resync-tree"] = result
    return result


def lines(b):
    t = titles()
    return [("copy-tree", t["copy-tree"], lambda: copy_line(b)),
            ("check-tree", t["check-tree"], lambda: check_line(b)),
            ("resync-tree", t["resync-tree"], lambda: resync_line(b))]


# ------------------------------------------------------------------ report

def report():
    """The requests each tool sent (first run of each line) and the issue's goals from this run."""
    if not REQUESTS:
        return ""
    out = ["Requests per side, first run of each tool (from the servers' access logs):", "",
           "| line | tool | Apache (source) | nginx (destination) |", "|---|---|---|---|"]
    for (line, key), counts in REQUESTS.items():
        out.append(f"| {line} | {key} | {describe(counts['apache'])} | {describe(counts['nginx'])} |")
    out += ["", "Goals (issue 17), from this run:"]

    def ratios(line):
        """Strata / rclone of the minimums and of the medians."""
        tools = RESULTS.get(line)
        if not tools or not tools["strata"].times or not tools["rclone"].times:
            return None
        s, r = tools["strata"].times, tools["rclone"].times
        return min(s) / min(r), statistics.median(s) / statistics.median(r)

    copy = ratios("copy-tree")
    if copy is not None:
        out.append(f"- copy ≤ 0.7 × rclone: {'met' if copy[0] <= 0.7 else 'NOT met'} "
                   f"({copy[0]:.2f} × rclone; medians {copy[1]:.2f} ×)")
        out.append(f"- copy ≤ 0.5 × rclone (issue 34, medians): {'met' if copy[1] <= 0.5 else 'NOT met'} "
                   f"({copy[1]:.2f} × rclone)")
    check = ratios("check-tree")
    if check is not None:
        out.append(f"- check: {check[0]:.2f} × rclone check (medians {check[1]:.2f} ×; no goal set)")
    folders = FOLDERS + 1  # the tree's root and its subfolders
    for key in ("strata", "rclone"):
        counts = REQUESTS.get(("resync-tree", key))
        if not counts:
            continue
        sides, ok = [], True
        for side in ("apache", "nginx"):
            listings = counts[side].get("PROPFIND 1", 0)
            ok = ok and listings <= folders
            others = sum(counts[side].values()) - listings
            sides.append(f"{side}: {listings} listings for {folders} folders, {others} other requests")
        if key == "strata":
            out.append(f"- sync again ≤ one listing per folder per side: {'met' if ok else 'NOT met'} ({'; '.join(sides)})")
        else:
            out.append(f"- rclone's sync again, for comparison: {'; '.join(sides)}")
    return "\n".join(out)
