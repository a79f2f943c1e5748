"""The Nuxeo and Pydio lines of scripts/bench: listing, download and upload against the
loopback servers (strata-nuxeo-server, strata-pydio-server) that scripts/bench starts and
seeds with a 10,000-entry folder `list10k` and the big file `big.bin`.

rclone has no Nuxeo or Pydio backend: its cells stay empty. curl does the raw HTTP calls:

- Nuxeo: the `@children` pages of the folder (1,000 per page, as Strata asks), the `@blob`
  download, and a batch upload (create the batch, send the file in one request,
  `FileManager.Import`), all with Basic authentication.
- Pydio: `get_action=ls` pages (200 per page above 500 entries), `download`, and `upload` as one
  multipart POST; the session (`get_seed`, `login`, secure token) is prepared once, untimed,
  while Strata signs in inside every timed run.

Every transfer is content-checked: listing entry counts, a SHA-256 of each tool's download
(once, untimed, into a file), and the size of the uploaded file every run and its SHA-256 on
each tool's first run, read back from the server.

Used by bench.py: `lines(bench)` gets the bench module (its Tool, measure, checks and
settings) and returns the (key, title, work) of each line.
"""

import base64
import hashlib
import http.cookiejar
import json
import os
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request

ENV = os.environ
NUXEO = ENV.get("BENCH_NUXEO_URL", "")  # http://127.0.0.1:PORT/nuxeo
PYDIO = ENV.get("BENCH_PYDIO_URL", "")  # http://127.0.0.1:PORT/pydio
NP_MIB = max(1, int(ENV.get("BENCH_NP_MIB", "256")))
WORKSPACE = "/default-domain/workspaces/strata"
LIST_COUNT = 10_000
NUXEO_PAGE = 1000
PYDIO_PAGE = 200


def np_big(b):
    """The big file of these lines (made by bench.py --generate)."""
    return os.path.join(b.DATA, f"big-{NP_MIB}MiB.bin")


def nuxeo_strata_url(b, path=""):
    return f"nuxeo://{b.USER}@{NUXEO.removeprefix('http://')}{WORKSPACE}/{path}"


def pydio_strata_url(b, path=""):
    return f"pydio://{b.USER}@{PYDIO.removeprefix('http://')}/my-files/{path}"


# ------------------------------------------------------------------ Nuxeo over HTTP

class Nuxeo:
    """Just enough of the REST API for the untimed preparation and the checks."""

    def __init__(self, b):
        self.auth = "Basic " + base64.b64encode(f"{b.USER}:{b.PASS}".encode()).decode()

    def call(self, method, path, data=None, headers=None):
        request = urllib.request.Request(NUXEO + path, data=data, method=method,
                                         headers={"Authorization": self.auth, **(headers or {})})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def document(self, name):
        status, body = self.call("GET", f"/api/v1/path{WORKSPACE}/{urllib.parse.quote(name)}",
                                 headers={"properties": "*"})
        return json.loads(body) if status == 200 else None

    def delete(self, name):
        status, _ = self.call("DELETE", f"/api/v1/path{WORKSPACE}/{urllib.parse.quote(name)}")
        if status not in (204, 404):
            raise RuntimeError(f"DELETE {name}: HTTP {status}")

    def blob_sha256(self, name):
        request = urllib.request.Request(NUXEO + f"/api/v1/path{WORKSPACE}/{urllib.parse.quote(name)}/@blob/file:content",
                                         headers={"Authorization": self.auth})
        digest = hashlib.sha256()
        with urllib.request.urlopen(request) as response:
            while chunk := response.read(4 << 20):
                digest.update(chunk)
        return digest.hexdigest()


def nuxeo_entries(path):
    """Entries of the concatenated `documents` pages curl wrote."""
    with open(path) as f:
        text = f.read()
    decoder, at, count = json.JSONDecoder(), 0, 0
    while at < len(text):
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            break
        page, at = decoder.raw_decode(text, at)
        count += len(page.get("entries", []))
    return count


def nuxeo_list(b):
    out = lambda tool: os.path.join(b.WORK, f"ls-nuxeo-{tool}.out")
    pages = (LIST_COUNT + NUXEO_PAGE - 1) // NUXEO_PAGE
    urls = [f"{NUXEO}/api/v1/path{WORKSPACE}/list10k/@children?currentPageIndex={i}&pageSize={NUXEO_PAGE}"
            for i in range(pages)]

    def curl_check(_run):
        got = nuxeo_entries(out("curl"))
        return None if got == LIST_COUNT else f"the pages hold {got} entries, expected {LIST_COUNT}"

    tools = {
        "strata": b.Tool([b.STRATA, "ls", nuxeo_strata_url(b, "list10k/")], stdout=out("strata"),
                         check=b.line_check(out("strata"), LIST_COUNT), env=b.strata_env()),
        "strata-bench": b.Tool([b.SBENCH, "list", nuxeo_strata_url(b, "list10k/"), "--expect", str(LIST_COUNT)],
                               env=b.strata_env()),
        "curl": b.Tool([b.CURL, "-sS", "--fail", "-u", f"{b.USER}:{b.PASS}", "-H", "properties: *"] + urls,
                       stdout=out("curl"), check=curl_check),
    }
    return b.measure("list nuxeo", tools)


def nuxeo_download(b):
    big = np_big(b)
    want, size = b.sha256_file(big), os.path.getsize(big)
    blob = f"{NUXEO}/api/v1/path{WORKSPACE}/big.bin/@blob/file:content"
    target = os.path.join(b.WORK, "download.bin")
    checks = {
        "strata": [b.STRATA, "get", nuxeo_strata_url(b, "big.bin"), target],
        "strata-bench": [b.SBENCH, "get", nuxeo_strata_url(b, "big.bin"), "--to", target],
        "curl": [b.CURL, "-sS", "--fail", "-u", f"{b.USER}:{b.PASS}", "-o", target, blob],
    }
    check_downloads(b, "download nuxeo", checks, target, want)
    tools = {
        "strata": b.Tool([b.STRATA, "get", nuxeo_strata_url(b, "big.bin"), "/dev/null"], env=b.strata_env()),
        "strata-bench": b.Tool([b.SBENCH, "get", nuxeo_strata_url(b, "big.bin"), "--size", str(size)],
                               env=b.strata_env()),
        "curl": b.Tool([b.CURL, "-sS", "--fail", "-u", f"{b.USER}:{b.PASS}", "-o", "/dev/null", blob]),
    }
    return b.measure("download nuxeo", tools)


def nuxeo_upload(b):
    big = np_big(b)
    want, size = b.sha256_file(big), os.path.getsize(big)
    nuxeo = Nuxeo(b)
    # curl: a batch, the file in one request (streamed with -T), FileManager.Import into the workspace.
    # "Expect:" turns off curl's 100-continue wait for big bodies (the Hummingbird servers do not answer it).
    curl = [b.CURL, "-sS", "--fail", "-H", "Expect:", "-u", f"{b.USER}:{b.PASS}"]
    script = (
        'set -e; '
        'batch=$($CURL_BASE -X POST "$NX/api/v1/upload/" | sed -n \'s/.*"batchId":"\\([^"]*\\)".*/\\1/p\'); '
        '[ -n "$batch" ]; '
        '$CURL_BASE -X POST -T "$FILE" -H "X-File-Name: up-curl.bin" -H "X-File-Size: $SIZE" '
        '-H "X-File-Type: application/octet-stream" -H "Content-Type: application/octet-stream" '
        '"$NX/api/v1/upload/$batch/0" >/dev/null; '
        '$CURL_BASE -X POST -H "Content-Type: application/json" -H "X-NXVoidOperation: true" '
        '--data "{\\"params\\":{},\\"context\\":{\\"currentDocument\\":\\"$WS\\"}}" '
        '"$NX/api/v1/upload/$batch/0/execute/FileManager.Import" >/dev/null'
    )
    curl_env = dict(ENV, CURL_BASE=" ".join(curl), NX=NUXEO, FILE=big, SIZE=str(size), WS=WORKSPACE)

    def tool(key, argv, env):
        name = f"up-{key}.bin"

        def prep():
            nuxeo.delete(name)

        def check(run):
            doc = nuxeo.document(name)
            if doc is None:
                return "no uploaded document on the server"
            length = int(((doc.get("properties") or {}).get("file:content") or {}).get("length") or -1)
            if length != size:
                return f"the uploaded blob has {length} bytes, expected {size}"
            if run == 0 and nuxeo.blob_sha256(name) != want:
                return "the uploaded blob's SHA-256 differs from the source"
            return None
        return b.Tool(argv, prep=prep, check=check, env=env)

    tools = {
        "strata": tool("strata", [b.STRATA, "put", big, nuxeo_strata_url(b, "up-strata.bin")], b.strata_env()),
        "strata-bench": tool("strata-bench", [b.SBENCH, "put", big, nuxeo_strata_url(b, "up-strata-bench.bin")],
                             b.strata_env()),
        "curl": tool("curl", ["sh", "-c", script], curl_env),
    }
    result = b.measure("upload nuxeo", tools)
    for key in tools:
        nuxeo.delete(f"up-{key}.bin")
    return result


# ------------------------------------------------------------------ Pydio over HTTP

class Pydio:
    """A signed-in Pydio session (cookie and secure token), for curl and the checks."""

    def __init__(self, b):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token = ""
        seed = self.read("get_seed").decode().strip()
        answer = self.read("login", post=[("userid", b.USER), ("password", b.PASS), ("login_seed", seed)]).decode()
        found = re.search(r'secure_token="([^"]+)"', answer)
        if seed != "-1" or not found:
            raise RuntimeError(f"Pydio login failed: {answer[:200]!r}")
        self.token = found.group(1)

    def url(self, action, params=()):
        query = [("get_action", action)] + list(params) + ([("secure_token", self.token)] if self.token else [])
        return f"{PYDIO}/index.php?" + urllib.parse.urlencode(query)

    def read(self, action, params=(), post=None):
        data = urllib.parse.urlencode(post).encode() if post is not None else None
        with self.opener.open(self.url(action, params), data=data) as response:
            return response.read()

    @property
    def cookie(self):
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def size(self, path):
        stat = json.loads(self.read("stat", [("tmp_repository_id", "my-files"), ("file", path)]))
        return int(stat["size"]) if "size" in stat else None

    def sha256(self, path):
        digest = hashlib.sha256()
        with self.opener.open(self.url("download", [("tmp_repository_id", "my-files"), ("file", path)])) as response:
            while chunk := response.read(4 << 20):
                digest.update(chunk)
        return digest.hexdigest()

    def put_small(self, name):
        """Replaces `name` at the workspace root with one byte (an upload that is not deferred)."""
        boundary = "benchboundary"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"userfile_0\"; filename=\"{name}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\nx\r\n--{boundary}--\r\n").encode()
        request = urllib.request.Request(
            self.url("upload", [("tmp_repository_id", "my-files"), ("dir", "/"), ("xhr_uploader", "true")]),
            data=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        with self.opener.open(request) as response:
            response.read()


def pydio_curl(b, pydio):
    return [b.CURL, "-sS", "--fail", "-b", pydio.cookie]


def pydio_list(b, pydio):
    out = lambda tool: os.path.join(b.WORK, f"ls-pydio-{tool}.out")
    pages = (LIST_COUNT + PYDIO_PAGE - 1) // PYDIO_PAGE
    # Page 1 is the folder itself; the others carry the literal page marker %23N (%2523N on the wire).
    dirs = ["/list10k"] + [f"/list10k%23{n}" for n in range(2, pages + 1)]
    urls = [pydio.url("ls", [("tmp_repository_id", "my-files"), ("dir", d), ("options", "al")]) for d in dirs]

    def curl_check(_run):
        with open(out("curl"), "rb") as f:
            got = f.read().count(b'filename="/list10k/entry-')
        return None if got == LIST_COUNT else f"the ls pages hold {got} entries, expected {LIST_COUNT}"

    tools = {
        "strata": b.Tool([b.STRATA, "ls", pydio_strata_url(b, "list10k/")], stdout=out("strata"),
                         check=b.line_check(out("strata"), LIST_COUNT), env=b.strata_env()),
        "strata-bench": b.Tool([b.SBENCH, "list", pydio_strata_url(b, "list10k/"), "--expect", str(LIST_COUNT)],
                               env=b.strata_env()),
        "curl": b.Tool(pydio_curl(b, pydio) + urls, stdout=out("curl"), check=curl_check),
    }
    return b.measure("list pydio", tools)


def pydio_download(b, pydio):
    big = np_big(b)
    want, size = b.sha256_file(big), os.path.getsize(big)
    url = pydio.url("download", [("tmp_repository_id", "my-files"), ("file", "/big.bin")])
    target = os.path.join(b.WORK, "download.bin")
    checks = {
        "strata": [b.STRATA, "get", pydio_strata_url(b, "big.bin"), target],
        "strata-bench": [b.SBENCH, "get", pydio_strata_url(b, "big.bin"), "--to", target],
        "curl": pydio_curl(b, pydio) + ["-o", target, url],
    }
    check_downloads(b, "download pydio", checks, target, want)
    tools = {
        "strata": b.Tool([b.STRATA, "get", pydio_strata_url(b, "big.bin"), "/dev/null"], env=b.strata_env()),
        "strata-bench": b.Tool([b.SBENCH, "get", pydio_strata_url(b, "big.bin"), "--size", str(size)],
                               env=b.strata_env()),
        "curl": b.Tool(pydio_curl(b, pydio) + ["-o", "/dev/null", url]),
    }
    return b.measure("download pydio", tools)


def pydio_upload(b, pydio):
    big = np_big(b)
    want, size = b.sha256_file(big), os.path.getsize(big)
    url = pydio.url("upload", [("tmp_repository_id", "my-files"), ("dir", "/"), ("xhr_uploader", "true"),
                               ("urlencoded_filename", "up-curl.bin")])

    def tool(key, argv, env):
        path = f"/up-{key}.bin"

        # A delete of a big file is deferred (8.x background task) and keeps it in the recycle
        # bin: overwrite the last upload with one byte instead, so a stale file cannot pass.
        def prep():
            pydio.put_small(path[1:])

        def check(run):
            got = pydio.size(path)
            if got != size:
                return f"the uploaded file has {got} bytes, expected {size}"
            if run == 0 and pydio.sha256(path) != want:
                return "the uploaded file's SHA-256 differs from the source"
            return None
        return b.Tool(argv, prep=prep, check=check, env=env)

    tools = {
        "strata": tool("strata", [b.STRATA, "put", big, pydio_strata_url(b, "up-strata.bin")], b.strata_env()),
        "strata-bench": tool("strata-bench", [b.SBENCH, "put", big, pydio_strata_url(b, "up-strata-bench.bin")],
                             b.strata_env()),
        "curl": tool("curl", pydio_curl(b, pydio) + ["-H", "Expect:", "-o", "/dev/null", "-F", f"userfile_0=@{big};filename=up-curl.bin",
                                                      url], ENV),
    }
    result = b.measure("upload pydio", tools)
    for key in tools:
        pydio.put_small(f"up-{key}.bin")
    return result


# ------------------------------------------------------------------ shared

def check_downloads(b, title, commands, target, want):
    """One untimed download per tool into `target`, digest-checked."""
    b.log(f"{title}: checking each tool's content once")
    for key, argv in commands.items():
        if os.path.exists(target):
            os.remove(target)
        status = subprocess.call(argv, env=b.strata_env(), stdout=subprocess.DEVNULL)
        if status != 0:
            b.fail(f"{title} / {key}: exit status {status}")
        elif b.sha256_file(target) != want:
            b.fail(f"{title} / {key}: the downloaded file's SHA-256 differs from the source")
    if os.path.exists(target):
        os.remove(target)


def titles():
    size = f"{NP_MIB} MiB"
    return {
        "list-nuxeo": f"list 10,000 entries (Nuxeo, loopback server; curl: the {LIST_COUNT // NUXEO_PAGE} @children pages)",
        "download-nuxeo": f"download {size} (Nuxeo, loopback in-memory server; curl: @blob)",
        "upload-nuxeo": f"upload {size} (Nuxeo, loopback in-memory server; Strata: 8 MiB chunks; "
                        "curl: batch, one request, FileManager.Import)",
        "list-pydio": f"list 10,000 entries (Pydio, loopback server; curl: the {LIST_COUNT // PYDIO_PAGE} ls pages "
                      "in a session prepared untimed)",
        "download-pydio": f"download {size} (Pydio, loopback in-memory server; curl: download in a session prepared untimed)",
        "upload-pydio": f"upload {size} (Pydio, loopback in-memory server; Strata: 4 MiB parts; "
                        "curl: one multipart POST in a session prepared untimed)",
    }


def lines(b):
    """(key, title, work) for each line whose server is running."""
    found = []
    pydio = []

    def session():
        if not pydio:
            pydio.append(Pydio(b))
        return pydio[0]

    t = titles()
    if NUXEO:
        found += [("list-nuxeo", t["list-nuxeo"], lambda: nuxeo_list(b)),
                  ("download-nuxeo", t["download-nuxeo"], lambda: nuxeo_download(b)),
                  ("upload-nuxeo", t["upload-nuxeo"], lambda: nuxeo_upload(b))]
    if PYDIO:
        found += [("list-pydio", t["list-pydio"], lambda: pydio_list(b, session())),
                  ("download-pydio", t["download-pydio"], lambda: pydio_download(b, session())),
                  ("upload-pydio", t["upload-pydio"], lambda: pydio_upload(b, session()))]
    return found
