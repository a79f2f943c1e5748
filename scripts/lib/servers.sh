# shellcheck shell=bash disable=SC2016,SC2119,SC2120
# Strata test servers on 127.0.0.1: Apache 2.4 mod_dav_fs, sabre/dav 1.8, nginx 1.22
# with the dav-ext module, lighttpd 1.4 mod_webdav, `rclone serve webdav` (twice: as is, and
# as `rclonefold` with --vfs-case-insensitive, a server that folds the case of names),
# copyparty (Python, from PyPI, pinned; WebDAV writes on) and chezdav (phodav 3.0, Debian).
#
# Source this file, then:
#   strata_servers_install   # apt-get the packages and pip-install copyparty into a
#                            # virtualenv (each skipped when already present)
#   strata_servers_start     # start the servers in a fresh temp dir, export:
#                            #   STRATA_APACHE_URL  STRATA_SABRE_URL  STRATA_NGINX_URL
#                            #   STRATA_NGINX_TLS_URL (the same nginx over https, HTTP/2 offered,
#                            #   its certificate signed by the throw-away authority STRATA_TEST_CA)
#                            #   STRATA_LIGHTTPD_URL  STRATA_RCLONE_URL
#                            #   STRATA_RCLONEFOLD_URL STRATA_COPYPARTY_URL STRATA_CHEZDAV_URL
#                            #   STRATA_APACHE_DIGEST_URL (the same Apache, HTTP Digest MD5)
#                            #   STRATA_LIGHTTPD_DIGEST_URL (the same lighttpd, HTTP Digest
#                            #   SHA-256 with userhash)
#                            #   STRATA_OAUTH_URL (an OAuth2 authorization server,
#                            #   django-oauth-toolkit: see its section below)
#                            #   STRATA_DAV_USER    STRATA_DAV_PASS (the same for all)
#                            #   STRATA_SERVERS_DIR (plus STRATA_<NAME>_ROOT and
#                            #   STRATA_<NAME>_DIGEST_ROOT: the served directories)
#                            #   DBUS_SESSION_BUS_ADDRESS and STRATA_TEST_KEYRING=1: a session
#                            #   bus of its own with gnome-keyring's Secret Service on it (an
#                            #   unlocked, throw-away login keyring; the caller's bus and keyring
#                            #   are never used while the servers run)
#   strata_servers_stop      # stop them (idempotent), remove the temp dir
#
# Inputs (optional): STRATA_APACHE_PORT (default 18081), STRATA_SABRE_PORT
# (default 18083), STRATA_NGINX_PORT (18085), STRATA_LIGHTTPD_PORT (18087),
# STRATA_RCLONE_PORT (18089), STRATA_RCLONEFOLD_PORT (18091), STRATA_COPYPARTY_PORT (18093),
# STRATA_CHEZDAV_PORT (18095), STRATA_OAUTH_PORT (18097), STRATA_NGINX_TLS_PORT (18099) -- if
# busy, another free port is picked;
# STRATA_COPYPARTY_VENV (default ~/.cache/strata/copyparty-$STRATA_COPYPARTY_VERSION: the
# virtualenv copyparty is installed into); STRATA_OAUTH_VENV (default
# ~/.cache/strata/oauth-dot-$STRATA_DOT_VERSION: the virtualenv of django-oauth-toolkit);
# STRATA_KEEP_SERVERS_DIR=1 keeps the temp dir (logs: run/apache-error.log,
# run/apache-access.log, sabre/php.log, nginx/error.log, nginx/access.log,
# lighttpd/error.log, rclone/rclone.log, rclonefold/rclone.log, copyparty/log,
# chezdav/log, oauth/log, keyring/bus.log, keyring/keyring.log) after stop.
#
# Quirks seen on the Debian 12 packages (what Strata verifies or works around):
# - nginx (dav + dav-ext): ignores If-Match / If-None-Match / If on PUT; no
#   getetag in PROPFIND; DELETE, MOVE and COPY of a collection need the trailing
#   `/` (409 without); PUT into a missing folder is 500; dot-files are not listed
#   by PROPFIND; MOVE/COPY with `Overwrite: F` onto a folder is a plain 412.
# - lighttpd mod_webdav: honours If-Match and If-None-Match on PUT but ignores
#   If-Match on GET (200 with the new content); PROPFIND of a file URL with a
#   trailing `/` is 403; MOVE/COPY with
#   `Overwrite: F` onto a folder is 207 with a 412 (MOVE) or 409 (COPY) for the
#   source; with `Overwrite: T` it merges the source into the existing folder.
# - rclone serve webdav 1.60: no Server header; ignores If-Match and
#   If-None-Match on PUT (but honours the RFC 4918 `If` header); MKCOL of an
#   existing folder is 201; a PUT writes straight into the target, so a cut upload
#   leaves a partial file (Strata verifies this and uploads to a temporary name,
#   then MOVEs it over the final one); listings are cached (--dir-cache-time): files written
#   to STRATA_RCLONE_ROOT behind its back may stay invisible.
# - copyparty and chezdav: see the comment blocks at the top of their sections below.
#
# The functions never change the caller's shell options and return non-zero
# with a message on stderr on failure, so they work under `set -euo pipefail`
# and in an interactive shell alike.

STRATA_SERVERS_PACKAGES=(apache2 apache2-utils php-cli php-sabre-dav curl libsqlite3-dev time
                         nginx libnginx-mod-http-dav-ext lighttpd lighttpd-mod-webdav rclone
                         chezdav python3 python3-venv
                         dbus gnome-keyring libsecret-1-0 libsecret-tools openssl)

# copyparty comes from PyPI (Debian 12 has no package), pinned: a new release may answer
# differently, and the quirks below are those of this version.
STRATA_COPYPARTY_VERSION=1.20.26
# The OAuth2 authorization server: django-oauth-toolkit on Django, from PyPI, pinned alike.
STRATA_DOT_VERSION=3.4.1
STRATA_DJANGO_VERSION=5.2.19
# oauthlib 4 breaks DOT 3.4.1's device authorization endpoint (DeviceCodeResponse gets `scope`: HTTP 500).
STRATA_OAUTHLIB_VERSION=3.3.1

# The repository this file belongs to (Tests/Servers/oauth holds the authorization server).
_STRATA_REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

_strata_log() { printf 'strata-servers: %s\n' "$*" >&2; }

# ---------------------------------------------------------------- install

_strata_servers_installed() {
  local f
  for f in /usr/sbin/apache2 /usr/lib/apache2/modules/mod_dav_fs.so /usr/bin/htpasswd \
           /usr/bin/php /usr/share/php/Sabre/autoload.php /usr/bin/curl /usr/bin/time \
           /usr/include/sqlite3.h /usr/sbin/nginx /usr/lib/nginx/modules/ngx_http_dav_ext_module.so \
           /usr/sbin/lighttpd /usr/lib/lighttpd/mod_webdav.so /usr/bin/rclone /usr/bin/chezdav \
           /usr/bin/python3 /usr/bin/dbus-daemon /usr/bin/dbus-send /usr/bin/gnome-keyring-daemon /usr/bin/secret-tool \
           /usr/bin/openssl; do
    [ -e "$f" ] || return 1
  done
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local st
  st=$(dpkg-query -W -f='${db:Status-Abbrev}\n' "${STRATA_SERVERS_PACKAGES[@]}" 2>/dev/null) || return 1
  [ "$(printf '%s\n' "$st" | grep -c '^ii')" -eq "${#STRATA_SERVERS_PACKAGES[@]}" ]
}

strata_servers_install() {
  _strata_servers_install_packages || return 1
  _strata_copyparty_install || return 1
  _strata_oauth_install
}

_strata_copyparty_venv() { printf '%s' "${STRATA_COPYPARTY_VENV:-${HOME:-/root}/.cache/strata/copyparty-$STRATA_COPYPARTY_VERSION}"; }

# copyparty, pinned, in its own virtualenv (Debian's python3 refuses a system-wide pip install).
# A virtualenv at $1 holding the pip requirements $4..., named $2 in the log, unless it already
# holds them (its strata-version file says $3): made afresh, pip tried three times (PyPI over a
# flaky network), the stamp written last, so a half-made one is made again next time.
_strata_venv_install() {
  local V=$1 what=$2 want=$3
  shift 3
  if [ -x "$V/bin/python" ] && [ "$(cat "$V/strata-version" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  _strata_log "installing $what from PyPI into $V"
  rm -rf "$V"
  mkdir -p "$(dirname "$V")" || return 1
  /usr/bin/python3 -m venv "$V" >&2 || { _strata_log "python3 -m venv $V failed"; return 1; }
  local i
  for i in 1 2 3; do
    if "$V/bin/pip" install -q --disable-pip-version-check "$@" >&2; then
      echo "$want" >"$V/strata-version"
      return 0
    fi
    _strata_log "pip install $what failed (try $i), retrying"; sleep 5
  done
  _strata_log "pip install $* failed"
  return 1
}

_strata_copyparty_install() {
  _strata_venv_install "$(_strata_copyparty_venv)" "copyparty $STRATA_COPYPARTY_VERSION" "$STRATA_COPYPARTY_VERSION" \
    "copyparty==$STRATA_COPYPARTY_VERSION"
}

_strata_oauth_venv() { printf '%s' "${STRATA_OAUTH_VENV:-${HOME:-/root}/.cache/strata/oauth-dot-$STRATA_DOT_VERSION}"; }

# django-oauth-toolkit and Django, pinned, in their own virtualenv (as copyparty).
_strata_oauth_install() {
  _strata_venv_install "$(_strata_oauth_venv)" "django-oauth-toolkit $STRATA_DOT_VERSION (Django $STRATA_DJANGO_VERSION)" \
    "$STRATA_DOT_VERSION django-$STRATA_DJANGO_VERSION oauthlib-$STRATA_OAUTHLIB_VERSION" "django==$STRATA_DJANGO_VERSION" "django-oauth-toolkit==$STRATA_DOT_VERSION" "oauthlib==$STRATA_OAUTHLIB_VERSION"
}

_strata_servers_install_packages() {
  if _strata_servers_installed; then
    return 0
  fi
  local -a sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      _strata_log "missing packages and not root (no passwordless sudo); install: ${STRATA_SERVERS_PACKAGES[*]}"
      return 1
    fi
  fi
  _strata_log "installing ${STRATA_SERVERS_PACKAGES[*]}"
  local i ok=
  for i in 1 2 3; do
    if "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -qq update >&2; then
      ok=1; break
    fi
    _strata_log "apt-get update failed (try $i), retrying"; sleep 5
  done
  [ -n "$ok" ] || { _strata_log "apt-get update failed"; return 1; }
  ok=
  for i in 1 2; do
    if "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=600 -y -q \
         "${STRATA_SERVERS_PACKAGES[@]}" >&2; then
      ok=1; break
    fi
    _strata_log "apt-get install failed (try $i)"; sleep 5
  done
  [ -n "$ok" ] || { _strata_log "apt-get install failed"; return 1; }
  _strata_servers_installed || { _strata_log "packages installed but files missing"; return 1; }
}

# ---------------------------------------------------------------- ports

# Succeeds when something accepts TCP connections on 127.0.0.1:$1.
_strata_port_listening() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$1" 2>/dev/null
}

# Succeeds when 127.0.0.1:$1 is free (nothing listening, and bindable).
_strata_port_free() {
  local port=$1 rc
  _strata_port_listening "$port" && return 1
  if command -v python3 >/dev/null 2>&1; then
    rc=0
    python3 - "$port" <<'EOF' 2>/dev/null || rc=$?
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(3)
EOF
    [ "$rc" -ne 3 ] || return 1
  fi
  return 0
}

# _strata_pick_port PREFERRED [EXCLUDED...] -> prints a free port
_strata_pick_port() {
  local want=$1 p i; shift
  case "$want" in
    ''|*[!0-9]*) _strata_log "ignoring bad port '$want', using 18080"; want=18080 ;;
  esac
  [ "$want" -ge 1024 ] && [ "$want" -le 65535 ] || want=18080
  for i in $(seq 0 40); do
    p=$((want + i))
    [ "$p" -le 65535 ] || break
    case " $* " in *" $p "*) continue ;; esac
    if _strata_port_free "$p"; then echo "$p"; return 0; fi
  done
  for i in $(seq 1 60); do
    p=$((20000 + RANDOM % 40000))
    case " $* " in *" $p "*) continue ;; esac
    if _strata_port_free "$p"; then echo "$p"; return 0; fi
  done
  _strata_log "no free port found near $want"
  return 1
}

# ---------------------------------------------------------------- processes

# _strata_spawn PIDFILE LOGFILE CMD... : start CMD in a new session (so its
# whole process group can be killed); PIDFILE gets the session leader's pid.
_strata_spawn() {
  local pidfile=$1 log=$2; shift 2
  local what=$1
  rm -f "$pidfile"
  setsid bash -c 'echo $$ > "$1"; shift; exec "$@"' _ "$pidfile" "$@" </dev/null >>"$log" 2>&1 &
  local i
  for i in $(seq 50); do
    [ -s "$pidfile" ] && return 0
    sleep 0.05
  done
  _strata_log "could not start $what"
  return 1
}

_strata_group_alive() { [ -n "${1:-}" ] && kill -0 -- "-$1" 2>/dev/null; }

# _strata_kill_group PGID : TERM the group, wait up to 10 s, then KILL.
_strata_kill_group() {
  local pg=${1:-} i
  [ -n "$pg" ] || return 0
  _strata_group_alive "$pg" || return 0
  kill -TERM -- "-$pg" 2>/dev/null || true
  for i in $(seq 100); do
    _strata_group_alive "$pg" || return 0
    sleep 0.1
  done
  _strata_log "process group $pg did not stop on TERM, killing"
  kill -KILL -- "-$pg" 2>/dev/null || true
  for i in $(seq 50); do
    _strata_group_alive "$pg" || return 0
    sleep 0.1
  done
  _strata_log "process group $pg still alive"
  return 1
}

# _strata_wait_dav NAME URL PGID LOG : wait (~20 s) for PROPFIND Depth 0 -> 207.
# Returns 0 when ready, 2 when the process died with "Address already in use"
# (caller retries on another port), 1 otherwise.
_strata_wait_dav() {
  local name=$1 url=$2 pg=$3 log=$4 code i
  for i in $(seq 200); do
    if ! _strata_group_alive "$pg"; then
      if grep -qi 'address already in use' "$log" 2>/dev/null; then return 2; fi
      _strata_log "$name exited during startup; last lines of $log:"
      tail -n 15 "$log" >&2 2>/dev/null || true
      return 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 -u "$STRATA_DAV_USER:$STRATA_DAV_PASS" \
             -X PROPFIND -H 'Depth: 0' "$url" 2>/dev/null) || code=000
    [ "$code" = 207 ] && return 0
    sleep 0.1
  done
  _strata_log "$name at $url did not answer PROPFIND Depth 0 with 207 within 20 s (last: $code); last lines of $log:"
  tail -n 15 "$log" >&2 2>/dev/null || true
  return 1
}

# ---------------------------------------------------------------- apache

_strata_apache_conf() {
  local R=$1 port=$2 m runas=
  if [ "$(id -u)" = 0 ]; then runas=$'User www-data\nGroup www-data'; fi
  cat <<EOF
ServerRoot /usr/lib/apache2
ServerName 127.0.0.1
Listen 127.0.0.1:$port
PidFile $R/run/httpd.pid
DefaultRuntimeDir $R/run
Mutex file:$R/run default
ErrorLog $R/run/apache-error.log
LogLevel warn
LogFormat "%t %>s %b %D \"%r\" \"%{Depth}i\"" strata
CustomLog $R/run/apache-access.log strata
$(for m in mpm_event authn_core authn_file authz_core authz_user auth_basic auth_digest alias dav dav_fs mime; do
    echo "LoadModule ${m}_module modules/mod_$m.so"; done)
TypesConfig /etc/mime.types
$runas
Timeout 300
LimitRequestBody 0
LimitXMLRequestBody 0
DAVLockDB $R/lock/DAVLock
DocumentRoot $R/www
<Directory />
  Options None
  AllowOverride None
  Require all denied
</Directory>
<Directory $R/www>
  Options None
  AllowOverride None
  Dav On
  DavDepthInfinity On
  AuthType Basic
  AuthName strata
  AuthUserFile $R/htpasswd
  Require valid-user
</Directory>
# The same DAV behind HTTP Digest (mod_auth_digest: MD5, qop=auth; nonces live 300 s), in a
# folder of its own so the Basic root's listing is unchanged.
Alias /digest $R/digest
<Directory $R/digest>
  Options None
  AllowOverride None
  Dav On
  DavDepthInfinity On
  AuthType Digest
  AuthName "strata digest"
  AuthDigestDomain /digest/
  AuthDigestProvider file
  AuthUserFile $R/htdigest
  Require valid-user
</Directory>
EOF
}

# _strata_htdigest FILE USER REALM PASS [sha256 [userhash]] : write FILE's one line,
# `user:realm:H(user:realm:pass)` (htdigest(1) reads the password from a terminal), H being MD5
# or SHA-256; with `userhash`, lighttpd's fourth field H(user:realm) too. Mode 0644 (the servers'
# www-data children read it); the password itself is never written.
_strata_htdigest() {
  local file=$1 user=$2 realm=$3 pass=$4 algo=${5:-md5} hash line
  case $algo in md5) hash=md5sum ;; sha256) hash=sha256sum ;; *) return 1 ;; esac
  line="$user:$realm:$(printf '%s' "$user:$realm:$pass" | "$hash" | cut -d' ' -f1)" || return 1
  if [ "${6:-}" = userhash ]; then
    line="$line:$(printf '%s' "$user:$realm" | "$hash" | cut -d' ' -f1)" || return 1
  fi
  printf '%s\n' "$line" >"$file" && chmod 644 "$file"
}

# _strata_wait_digest NAME URL : the Digest location answers PROPFIND Depth 0 with 207 (curl
# --digest; a few tries, the server is up already).
_strata_wait_digest() {
  local name=$1 url=$2 code i
  for i in $(seq 50); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --digest -u "$STRATA_DAV_USER:$STRATA_DAV_PASS" \
             -X PROPFIND -H 'Depth: 0' "$url" 2>/dev/null) || code=000
    [ "$code" = 207 ] && return 0
    sleep 0.1
  done
  _strata_log "$name: the Digest location $url did not answer PROPFIND Depth 0 with 207 (last: $code)"
  return 1
}

_strata_start_apache() {
  local R=$STRATA_SERVERS_DIR port rc
  mkdir -p "$R/www" "$R/digest" "$R/lock" "$R/run" || return 1
  if ! printf '%s\n' "$STRATA_DAV_PASS" | htpasswd -ic "$R/htpasswd" "$STRATA_DAV_USER" >/dev/null 2>&1; then
    _strata_log "htpasswd failed"; return 1
  fi
  chmod 644 "$R/htpasswd"
  _strata_htdigest "$R/htdigest" "$STRATA_DAV_USER" "strata digest" "$STRATA_DAV_PASS" || { _strata_log "htdigest failed"; return 1; }
  if [ "$(id -u)" = 0 ]; then chown www-data: "$R/www" "$R/digest" "$R/lock" || return 1; fi
  port=$(_strata_pick_port "${STRATA_APACHE_PORT:-18081}" "$@") || return 1
  for _ in 1 2 3; do
    _strata_apache_conf "$R" "$port" >"$R/httpd.conf" || return 1
    : >"$R/run/apache-error.log"
    _strata_spawn "$R/run/apache.pgid" "$R/run/apache-error.log" \
      /usr/sbin/apache2 -f "$R/httpd.conf" -DFOREGROUND || return 1
    rc=0
    _strata_wait_dav Apache "http://127.0.0.1:$port/" "$(cat "$R/run/apache.pgid")" \
      "$R/run/apache-error.log" || rc=$?
    if [ "$rc" = 0 ]; then
      echo "$port" >"$R/run/apache.port"; STRATA_APACHE_URL="http://127.0.0.1:$port/"
      STRATA_APACHE_DIGEST_URL="http://127.0.0.1:$port/digest/"
      _strata_wait_digest Apache "$STRATA_APACHE_DIGEST_URL" || return 1
      return 0
    fi
    _strata_kill_group "$(cat "$R/run/apache.pgid" 2>/dev/null)" || true
    [ "$rc" = 2 ] || return 1
    _strata_log "Apache: port $port taken meanwhile, trying another"
    port=$(_strata_pick_port $((port + 1)) "$@") || return 1
  done
  return 1
}

# ---------------------------------------------------------------- sabre

_strata_start_sabre() {
  local R=$STRATA_SERVERS_DIR port rc
  mkdir -p "$R/sabre/data" "$R/sabre/docroot" || return 1
  cat >"$R/sabre/server.php" <<'EOF'
<?php
// sabre/dav 1.8 (Debian php-sabre-dav) for Strata tests.
require_once 'Sabre/autoload.php';
use Sabre\DAV;
error_reporting(E_ALL & ~E_DEPRECATED & ~E_STRICT);
ini_set('display_errors', '0');
class StrataAuth extends DAV\Auth\Backend\AbstractBasic {
  protected function validateUserPass($u, $p) {
    return $u === getenv('STRATA_DAV_USER') && $p === getenv('STRATA_DAV_PASS');
  }
}
$s = new DAV\Server(new DAV\FSExt\Directory(__DIR__ . '/data'));
$s->setBaseUri('/');
$s->addPlugin(new DAV\Auth\Plugin(new StrataAuth(), 'strata'));
$s->addPlugin(new DAV\Locks\Plugin(new DAV\Locks\Backend\File(__DIR__ . '/locks.dat')));
$s->exec();
EOF
  port=$(_strata_pick_port "${STRATA_SABRE_PORT:-18083}" "$@") || return 1
  for _ in 1 2 3; do
    : >"$R/sabre/php.log"
    PHP_CLI_SERVER_WORKERS=${STRATA_SABRE_WORKERS:-4} _strata_spawn "$R/sabre/php.pgid" "$R/sabre/php.log" \
      php -d upload_max_filesize=0 -d post_max_size=0 -d memory_limit=-1 -d max_execution_time=0 \
          -d max_input_time=-1 -d display_errors=0 -d log_errors=1 \
          -S "127.0.0.1:$port" -t "$R/sabre/docroot" "$R/sabre/server.php" || return 1
    rc=0
    _strata_wait_dav sabre "http://127.0.0.1:$port/" "$(cat "$R/sabre/php.pgid")" \
      "$R/sabre/php.log" || rc=$?
    if [ "$rc" = 0 ]; then
      echo "$port" >"$R/sabre/php.port"; STRATA_SABRE_URL="http://127.0.0.1:$port/"; return 0
    fi
    _strata_kill_group "$(cat "$R/sabre/php.pgid" 2>/dev/null)" || true
    [ "$rc" = 2 ] || return 1
    _strata_log "sabre: port $port taken meanwhile, trying another"
    port=$(_strata_pick_port $((port + 1)) "$@") || return 1
  done
  return 1
}

# ---------------------------------------------------------------- nginx, lighttpd, rclone

# _strata_start_loop NAME DIR PREFERRED_PORT LAUNCH [EXCLUDED_PORTS...] : pick a
# port, run `LAUNCH DIR PORT` (which writes its config and spawns the server with
# its group id in DIR/pgid and its output in DIR/log), wait for PROPFIND, retry
# on another port when the port was taken meanwhile. On success DIR/port holds
# the port and STRATA_LAST_URL the URL.
_strata_start_loop() {
  local name=$1 dir=$2 want=$3 launch=$4 port rc; shift 4
  port=$(_strata_pick_port "$want" "$@") || return 1
  for _ in 1 2 3; do
    : >"$dir/log"
    "$launch" "$dir" "$port" || return 1
    rc=0
    _strata_wait_dav "$name" "http://127.0.0.1:$port/" "$(cat "$dir/pgid")" "$dir/log" || rc=$?
    if [ "$rc" = 0 ]; then
      echo "$port" >"$dir/port"; STRATA_LAST_URL="http://127.0.0.1:$port/"; return 0
    fi
    _strata_kill_group "$(cat "$dir/pgid" 2>/dev/null)" || true
    [ "$rc" = 2 ] || return 1
    _strata_log "$name: port $port taken meanwhile, trying another"
    port=$(_strata_pick_port $((port + 1)) "$@") || return 1
  done
  return 1
}

# A throw-away certificate authority and a certificate for 127.0.0.1 (and localhost) that it
# signed, made once per run in $1 (openssl): ca.pem is what a client trusts (STRATA_TEST_CA),
# server.pem and server.key are the server's. Valid for two days.
_strata_make_tls() {
  local T=$1
  [ -s "$T/server.pem" ] && [ -s "$T/ca.pem" ] && return 0
  mkdir -p "$T" || return 1
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Strata test authority" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$T/ca.key" -out "$T/ca.pem" >"$T/openssl.log" 2>&1 || { _strata_log "openssl: the test authority failed"; return 1; }
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$T/server.key" -out "$T/server.csr" \
    >>"$T/openssl.log" 2>&1 || { _strata_log "openssl: the server key failed"; return 1; }
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$T/server.ext"
  openssl x509 -req -in "$T/server.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial -days 2 \
    -extfile "$T/server.ext" -out "$T/server.pem" >>"$T/openssl.log" 2>&1 || { _strata_log "openssl: signing failed"; return 1; }
}

# nginx 1.22 with ngx_http_dav_module (built in) and the dav-ext module (PROPFIND,
# OPTIONS, LOCK). As root the workers run as www-data, like Apache's. The same files are also
# served over TLS on a second port (its number in DIR/tls-port), HTTP/2 offered by ALPN, with a
# certificate of the test authority; its access log (tls-access.log) records each request's
# protocol (HTTP/1.1 or HTTP/2.0).
_strata_launch_nginx() {
  local D=$1 port=$2 user= tport T=$STRATA_SERVERS_DIR/tls
  if [ "$(id -u)" = 0 ]; then user='user www-data www-data;'; fi
  _strata_make_tls "$T" || return 1
  tport=$(_strata_pick_port "${STRATA_NGINX_TLS_PORT:-18099}" "$port") || return 1
  echo "$tport" >"$D/tls-port"
  # What both servers (plain and TLS) serve: the same files, the same login and DAV methods.
  cat >"$D/dav.conf" <<CONF
root $D/www;
location / {
  auth_basic strata;
  auth_basic_user_file $STRATA_SERVERS_DIR/htpasswd;
  dav_methods PUT DELETE MKCOL COPY MOVE;
  dav_ext_methods PROPFIND OPTIONS LOCK UNLOCK;
  dav_ext_lock zone=strata;
  dav_access user:rw group:rw all:r;
}
CONF
  cat >"$D/nginx.conf" <<CONF
daemon off;
master_process on;
worker_processes 2;
$user
pid $D/nginx.pid;
error_log $D/log warn;
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
events { worker_connections 512; }
http {
  access_log $D/access.log;
  client_body_temp_path $D/tmp;
  client_max_body_size 0;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  dav_ext_lock_zone zone=strata:1m;
  log_format protocol '\$request_method \$request_uri \$status \$server_protocol';
  server {
    listen 127.0.0.1:$port;
    include $D/dav.conf;
  }
  server {
    listen 127.0.0.1:$tport ssl http2;
    ssl_certificate $T/server.pem;
    ssl_certificate_key $T/server.key;
    access_log $D/tls-access.log protocol;
    include $D/dav.conf;
  }
}
CONF
  # -e: the error log before the configuration is read (else /var/log/nginx).
  _strata_spawn "$D/pgid" "$D/log" /usr/sbin/nginx -c "$D/nginx.conf" -p "$D" -e "$D/log"
}

# lighttpd 1.4 mod_webdav (properties and locks in SQLite). As root it runs as www-data.
_strata_launch_lighttpd() {
  local D=$1 port=$2 user=
  if [ "$(id -u)" = 0 ]; then user=$'server.username = "www-data"\nserver.groupname = "www-data"'; fi
  cat >"$D/lighttpd.conf" <<CONF
server.modules = ("mod_alias", "mod_auth", "mod_authn_file", "mod_webdav")
server.document-root = "$D/www"
server.bind = "127.0.0.1"
server.port = $port
$user
server.errorlog = "$D/error.log"
server.upload-dirs = ("$D/tmp")
server.max-request-size = 0
include_shell "/usr/share/lighttpd/create-mime.conf.pl"
auth.backend = "htpasswd"
auth.backend.htpasswd.userfile = "$STRATA_SERVERS_DIR/htpasswd"
auth.require = ("" => ("method" => "basic", "realm" => "strata", "require" => "valid-user"))
# The same DAV behind HTTP Digest SHA-256 with the user name hashed (RFC 7616 userhash), in a
# folder of its own so the Basic root's listing is unchanged.
alias.url = ("/digest/" => "$D/digest/")
\$HTTP["url"] =~ "^/digest/" {
  auth.backend = "htdigest"
  auth.backend.htdigest.userfile = "$D/htdigest"
  auth.require = ("" => ("method" => "digest", "realm" => "strata sha256", "algorithm" => "SHA-256",
                         "userhash" => "enable", "require" => "valid-user"))
}
webdav.activate = "enable"
webdav.is-readonly = "disable"
webdav.sqlite-db-name = "$D/db/webdav.db"
CONF
  _strata_spawn "$D/pgid" "$D/log" /usr/sbin/lighttpd -D -f "$D/lighttpd.conf"
}

# rclone serve webdav over a local folder (no configuration file needed).
_strata_launch_rclone() {
  local D=$1 port=$2
  RCLONE_CONFIG=$D/rclone.conf _strata_spawn "$D/pgid" "$D/log" /usr/bin/rclone serve webdav "$D/www" \
    --addr "127.0.0.1:$port" --htpasswd "$STRATA_SERVERS_DIR/htpasswd" --log-file "$D/rclone.log"
}

# rclone serve webdav with --vfs-case-insensitive: a name not found is looked up ignoring case,
# so `a.txt` and `A.txt` are one file (a PUT of one overwrites the other) and a listing shows the
# name first written: a case-insensitive, case-preserving server, as on macOS or Windows.
_strata_launch_rclonefold() {
  local D=$1 port=$2
  RCLONE_CONFIG=$D/rclone.conf _strata_spawn "$D/pgid" "$D/log" /usr/bin/rclone serve webdav "$D/www" \
    --vfs-case-insensitive \
    --addr "127.0.0.1:$port" --htpasswd "$STRATA_SERVERS_DIR/htpasswd" --log-file "$D/rclone.log"
}

# ---------------------------------------------------------------- copyparty
# copyparty 1.20.26 (PyPI, Python 3.11), one volume at / with every right (A = rwmda.) for the
# test account, `daw` (a PUT overwrites an existing file instead of renaming the upload, and
# WebDAV writes are allowed to any client) and `dav-auth` (PROPFIND asks for a login even where a
# folder would be readable without one). Its state (history database, config) is kept in the
# temp dir, not in the served folder or ~/.config. `dont-ban: any` turns its bans off: the suites
# send wrong passwords and ask for missing names on purpose (more than 9 and 50 of them), which
# would ban 127.0.0.1 for a day. Quirks seen (what Strata verifies or works
# around; the conformance results are in the run's notes):
# - MOVE/COPY with `Overwrite: F` onto an existing name answers 400, not 412.
# - MKCOL over an existing file answers 500; a PUT into a missing folder creates the folder.
# - No getetag at all (so no preconditions: If-Match / If-None-Match are ignored, 201).
# - A cut PUT leaves its partial file; an overwriting MOVE/COPY of a folder merges it.
# - A leading space is dropped from a name (` a.txt` is stored as `a.txt`).
# - RFC 4331 quota on the root; the root's `displayname` is empty; dates are RFC 1123;
#   answers set a `cppwd` cookie.
# - Without `daw`, a PUT onto an existing file stores the upload under a new name.
_strata_launch_copyparty() {
  local D=$1 port=$2 V
  V=$(_strata_copyparty_venv)
  mkdir -p "$D/hist" "$D/cfg" || return 1
  # The password goes into a file only readable by us, never onto a command line.
  ( umask 077
    cat >"$D/copyparty.conf" <<CONF
[global]
  i: 127.0.0.1
  p: $port
  daw
  dav-auth
  http-only
  no-crt
  dont-ban: any
  hist: $D/hist
[accounts]
  $STRATA_DAV_USER: $STRATA_DAV_PASS
[/]
  $D/www
  accs:
    A: $STRATA_DAV_USER
CONF
  ) || return 1
  XDG_CONFIG_HOME=$D/cfg _strata_spawn "$D/pgid" "$D/log" "$V/bin/copyparty" -c "$D/copyparty.conf"
}

# ---------------------------------------------------------------- chezdav
# chezdav (phodav 3.0, libsoup 3; Debian `chezdav`), on loopback only, without mDNS. It knows
# HTTP Digest only (`--htdigest FILE --realm R`). Strata speaks Digest now, but with an htdigest
# file this chezdav checks the user name only: `curl --digest -u strata:WRONG` gets its 207 (a
# wrong user gets 401). A login there would prove nothing, so it runs WITHOUT one: it ignores the
# Basic credentials the tests send (Digest is tested on Apache and lighttpd, STRATA_*_DIGEST_URL).
# Quirks seen (what Strata verifies or works around):
# - hrefs are absolute URLs (`http://127.0.0.1:PORT/...`) with raw `#` and `?`, and `%XX` in a
#   name decoded (`test%46.txt` is listed as `testF.txt`); a name holding `%` or `&` gets an
#   empty href (`<D:href/>`), in a listing and in a Depth 0 answer alike; folders' hrefs have no
#   trailing slash.
# - If-None-Match and If-Match are ignored on PUT (200); ranges are served (206 with Content-Range, verified);
#   a PUT into a missing folder is 500 (MKCOL there is 409); RFC 4331 quota on the root.
# - getlastmodified is ISO 8601 (`2026-11-28T05:46:01Z`), not RFC 1123; creationdate is RFC 1123.
# - The connection is closed after a DELETE without `Connection: close`: the next request on it
#   fails (connection reset).
# - Folders report getcontentlength 4096 and getcontenttype `inode/directory`.
_strata_launch_chezdav() {
  local D=$1 port=$2
  _strata_spawn "$D/pgid" "$D/log" /usr/bin/chezdav --local --no-mdns -p "$port" -P "$D/www"
}

# _strata_start_other NAME [EXCLUDED_PORTS...] : make NAME's folders and start it;
# sets STRATA_<NAME>_URL.
_strata_start_other() {
  local name=$1 D=$STRATA_SERVERS_DIR/$1 want; shift
  mkdir -p "$D/www" "$D/tmp" "$D/db" || return 1
  if [ "$name" = lighttpd ]; then
    mkdir -p "$D/digest" || return 1
    _strata_htdigest "$D/htdigest" "$STRATA_DAV_USER" "strata sha256" "$STRATA_DAV_PASS" sha256 userhash \
      || { _strata_log "htdigest failed"; return 1; }
  fi
  # lighttpd opens its error log after dropping to www-data.
  # (rclone, copyparty and chezdav run as the caller.)
  case $name in nginx|lighttpd) if [ "$(id -u)" = 0 ]; then chown -R www-data: "$D" || return 1; fi ;; esac
  case $name in
    nginx) want=${STRATA_NGINX_PORT:-18085} ;;
    lighttpd) want=${STRATA_LIGHTTPD_PORT:-18087} ;;
    rclone) want=${STRATA_RCLONE_PORT:-18089} ;;
    rclonefold) want=${STRATA_RCLONEFOLD_PORT:-18091} ;;
    copyparty) want=${STRATA_COPYPARTY_PORT:-18093} ;;
    chezdav) want=${STRATA_CHEZDAV_PORT:-18095} ;;
  esac
  STRATA_LAST_URL=
  _strata_start_loop "$name" "$D" "$want" "_strata_launch_$name" "$@" || return 1
  case $name in
    nginx)
      STRATA_NGINX_URL=$STRATA_LAST_URL STRATA_NGINX_TLS_URL=https://127.0.0.1:$(cat "$D/tls-port")/
      STRATA_TEST_CA=$STRATA_SERVERS_DIR/tls/ca.pem STRATA_NGINX_TLS_LOG=$D/tls-access.log
      curl -sf -o /dev/null --cacert "$STRATA_TEST_CA" -u "$STRATA_DAV_USER:$STRATA_DAV_PASS" -X PROPFIND -H 'Depth: 0' \
        "$STRATA_NGINX_TLS_URL" || { _strata_log "nginx over TLS does not answer at $STRATA_NGINX_TLS_URL"; return 1; } ;;
    lighttpd)
      STRATA_LIGHTTPD_URL=$STRATA_LAST_URL; STRATA_LIGHTTPD_DIGEST_URL=${STRATA_LAST_URL}digest/
      _strata_wait_digest lighttpd "$STRATA_LIGHTTPD_DIGEST_URL" || return 1 ;;
    rclone) STRATA_RCLONE_URL=$STRATA_LAST_URL ;;
    rclonefold) STRATA_RCLONEFOLD_URL=$STRATA_LAST_URL ;;
    copyparty) STRATA_COPYPARTY_URL=$STRATA_LAST_URL ;;
    chezdav) STRATA_CHEZDAV_URL=$STRATA_LAST_URL ;;
  esac
}

# ---------------------------------------------------------------- oauth
# An OAuth2 authorization server: django-oauth-toolkit 3.4.1 on Django 5.2 (PyPI), the project
# in Tests/Servers/oauth (settings.py, urls.py, serve.py: read serve.py for the clients it
# registers). Refresh tokens rotate (an old one is refused: invalid_grant), public clients must
# use PKCE, the device authorization grant, introspection (RFC 7662) and revocation (RFC 7009)
# are on, under /o/. Its database is in the temp dir; the log (one line per request) is oauth/log.
_strata_launch_oauth() {
  local D=$1 port=$2 V key
  V=$(_strata_oauth_venv)
  key=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n') || return 1
  # The secrets travel in the environment, never on a command line.
  STRATA_OAUTH_DIR=$D STRATA_OAUTH_PORT=$port STRATA_OAUTH_SECRET_KEY=$key PYTHONDONTWRITEBYTECODE=1 \
    _strata_spawn "$D/pgid" "$D/log" "$V/bin/python" "$_STRATA_REPO_DIR/Tests/Servers/oauth/serve.py"
}

_strata_start_oauth() {
  local D=$STRATA_SERVERS_DIR/oauth port i code
  mkdir -p "$D" || return 1
  if [ ! -x "$(_strata_oauth_venv)/bin/python" ]; then
    _strata_log "django-oauth-toolkit is not installed (run strata_servers_install)"; return 1
  fi
  port=$(_strata_pick_port "${STRATA_OAUTH_PORT:-18097}" "$@") || return 1
  : >"$D/log"
  _strata_launch_oauth "$D" "$port" || return 1
  for i in $(seq 300); do
    if ! _strata_group_alive "$(cat "$D/pgid")"; then
      _strata_log "the OAuth2 server exited during startup; last lines of $D/log:"; tail -n 15 "$D/log" >&2; return 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/login/" 2>/dev/null) || code=000
    if [ "$code" = 200 ]; then
      echo "$port" >"$D/port"; STRATA_OAUTH_URL="http://127.0.0.1:$port/"; return 0
    fi
    sleep 0.1
  done
  _strata_log "the OAuth2 server did not answer within 30 s; last lines of $D/log:"; tail -n 15 "$D/log" >&2
  return 1
}

# ---------------------------------------------------------------- keyring

# The Secret Service for the keyring tests (Strata keeps saved logins there): a dbus-daemon of
# its own (the session configuration, its socket in $R/keyring/run) and gnome-keyring-daemon
# on it with only its secrets component, whose login keyring is created and unlocked with a
# random password given on stdin (--unlock), in $R/keyring/data: the real user's keyring and
# bus are never touched, and everything goes with the temp dir. Works as root without a desktop
# (nothing prompts: the keyring is unlocked; the GTK prompter is never needed).
# Exports DBUS_SESSION_BUS_ADDRESS (the caller's is kept and given back by strata_servers_stop)
# and STRATA_TEST_KEYRING=1, which tells the keyring tests that this keyring is theirs to write.
_strata_start_keyring() {
  local D=$STRATA_SERVERS_DIR/keyring i owner alias
  mkdir -p "$D/data" "$D/run" "$D/home" || return 1
  chmod 700 "$D/data" "$D/run" "$D/home" || return 1
  local address="unix:path=$D/run/bus"
  # The daemons' own environment: their files in $D, never the caller's home or runtime dir.
  local -a env=(env -u DISPLAY -u WAYLAND_DISPLAY -u DBUS_SESSION_BUS_ADDRESS HOME="$D/home" XDG_DATA_HOME="$D/data"
                XDG_RUNTIME_DIR="$D/run" XDG_CONFIG_HOME="$D/home/.config" XDG_CACHE_HOME="$D/home/.cache")
  _strata_spawn "$D/bus.pgid" "$D/bus.log" "${env[@]}" /usr/bin/dbus-daemon --session --nofork --nopidfile \
    --address="$address" || return 1
  for i in $(seq 100); do
    [ -S "$D/run/bus" ] && break
    _strata_group_alive "$(cat "$D/bus.pgid")" || { _strata_log "dbus-daemon exited (log: $D/bus.log)"; return 1; }
    sleep 0.1
  done
  [ -S "$D/run/bus" ] || { _strata_log "dbus-daemon made no socket (log: $D/bus.log)"; return 1; }
  od -An -N18 -tx1 /dev/urandom | tr -d ' \n' >"$D/password" || return 1
  chmod 600 "$D/password" || return 1
  rm -f "$D/keyring.pgid"
  # Like _strata_spawn, with the password on stdin (read to its end by --unlock).
  setsid bash -c 'echo $$ > "$1"; shift; exec "$@"' _ "$D/keyring.pgid" "${env[@]}" DBUS_SESSION_BUS_ADDRESS="$address" \
    /usr/bin/gnome-keyring-daemon --foreground --unlock --components=secrets <"$D/password" >>"$D/keyring.log" 2>&1 &
  for i in $(seq 50); do [ -s "$D/keyring.pgid" ] && break; sleep 0.05; done
  [ -s "$D/keyring.pgid" ] || { _strata_log "could not start gnome-keyring-daemon"; return 1; }
  # Ready when the Secret Service owns its name and its default alias names a collection.
  for i in $(seq 200); do
    owner=$(DBUS_SESSION_BUS_ADDRESS=$address /usr/bin/dbus-send --session --print-reply --dest=org.freedesktop.DBus \
      /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null) || owner=
    if [[ $owner == *"boolean true"* ]]; then
      alias=$(DBUS_SESSION_BUS_ADDRESS=$address /usr/bin/dbus-send --session --print-reply --dest=org.freedesktop.secrets \
        /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias string:default 2>/dev/null) || alias=
      [[ $alias == *"/org/freedesktop/secrets/collection/"* ]] && break
    fi
    _strata_group_alive "$(cat "$D/keyring.pgid")" || { _strata_log "gnome-keyring-daemon exited (log: $D/keyring.log)"; return 1; }
    sleep 0.1
  done
  [[ ${alias:-} == *"/org/freedesktop/secrets/collection/"* ]] || {
    _strata_log "gnome-keyring-daemon did not offer a default collection (log: $D/keyring.log)"; return 1; }
  if [ -z "${_STRATA_KEYRING_SAVED_BUS+x}" ]; then _STRATA_KEYRING_SAVED_BUS=${DBUS_SESSION_BUS_ADDRESS-__unset__}; fi
  export DBUS_SESSION_BUS_ADDRESS=$address STRATA_TEST_KEYRING=1
}

# ---------------------------------------------------------------- public

strata_servers_start() {
  # Servers started earlier by this same shell are stopped first. Variables
  # inherited from an outer shell are ignored (they belong to someone else).
  if [ -n "${_STRATA_SERVERS_OWNED_DIR:-}" ]; then strata_servers_stop || true; fi
  local R
  R=$(mktemp -d "${TMPDIR:-/tmp}/strata-servers.XXXXXX") || { _strata_log "mktemp failed"; return 1; }
  chmod 755 "$R"   # mktemp makes it 0700; Apache's www-data children must get in
  _STRATA_SERVERS_OWNED_DIR=$R
  export STRATA_SERVERS_DIR=$R
  export STRATA_DAV_USER=strata
  STRATA_DAV_PASS=$(od -An -N18 -tx1 /dev/urandom | tr -d ' \n') || return 1
  export STRATA_DAV_PASS
  export STRATA_APACHE_ROOT=$R/www STRATA_SABRE_ROOT=$R/sabre/data STRATA_NGINX_ROOT=$R/nginx/www \
         STRATA_LIGHTTPD_ROOT=$R/lighttpd/www STRATA_RCLONE_ROOT=$R/rclone/www \
         STRATA_RCLONEFOLD_ROOT=$R/rclonefold/www STRATA_COPYPARTY_ROOT=$R/copyparty/www \
         STRATA_CHEZDAV_ROOT=$R/chezdav/www \
         STRATA_APACHE_DIGEST_ROOT=$R/digest STRATA_LIGHTTPD_DIGEST_ROOT=$R/lighttpd/digest
  STRATA_APACHE_URL='' STRATA_SABRE_URL='' STRATA_NGINX_URL='' STRATA_LIGHTTPD_URL='' STRATA_RCLONE_URL=''
  STRATA_NGINX_TLS_URL='' STRATA_TEST_CA='' STRATA_NGINX_TLS_LOG=''
  STRATA_RCLONEFOLD_URL='' STRATA_COPYPARTY_URL='' STRATA_CHEZDAV_URL=''
  STRATA_APACHE_DIGEST_URL='' STRATA_LIGHTTPD_DIGEST_URL=''
  if ! _strata_start_apache "${STRATA_SABRE_PORT:-18083}"; then
    _strata_log "Apache failed to start (logs in $R/run)"
    STRATA_KEEP_SERVERS_DIR=${STRATA_KEEP_SERVERS_DIR:-1} strata_servers_stop || true
    return 1
  fi
  local aport=${STRATA_APACHE_URL#http://127.0.0.1:}; aport=${aport%/}
  if ! _strata_start_sabre "$aport"; then
    _strata_log "sabre/dav failed to start (log: $R/sabre/php.log)"
    STRATA_KEEP_SERVERS_DIR=${STRATA_KEEP_SERVERS_DIR:-1} strata_servers_stop || true
    return 1
  fi
  local sport=${STRATA_SABRE_URL#http://127.0.0.1:}; sport=${sport%/}
  local name taken="$aport $sport" url
  for name in nginx lighttpd rclone rclonefold copyparty chezdav; do
    if ! _strata_start_other "$name" $taken; then
      _strata_log "$name failed to start (logs in $R/$name)"
      STRATA_KEEP_SERVERS_DIR=${STRATA_KEEP_SERVERS_DIR:-1} strata_servers_stop || true
      return 1
    fi
    url=$STRATA_LAST_URL; url=${url#http://127.0.0.1:}; taken="$taken ${url%/}"
  done
  STRATA_OAUTH_URL=''
  if ! _strata_start_oauth $taken; then
    _strata_log "the OAuth2 server failed to start (log in $R/oauth)"
    STRATA_KEEP_SERVERS_DIR=${STRATA_KEEP_SERVERS_DIR:-1} strata_servers_stop || true
    return 1
  fi
  if ! _strata_start_keyring; then
    _strata_log "the test keyring failed to start (logs in $R/keyring)"
    STRATA_KEEP_SERVERS_DIR=${STRATA_KEEP_SERVERS_DIR:-1} strata_servers_stop || true
    return 1
  fi
  export STRATA_APACHE_URL STRATA_SABRE_URL STRATA_NGINX_URL STRATA_LIGHTTPD_URL STRATA_RCLONE_URL \
         STRATA_RCLONEFOLD_URL STRATA_COPYPARTY_URL STRATA_CHEZDAV_URL STRATA_APACHE_DIGEST_URL \
         STRATA_LIGHTTPD_DIGEST_URL STRATA_OAUTH_URL STRATA_NGINX_TLS_URL STRATA_TEST_CA STRATA_NGINX_TLS_LOG
  return 0
}

# strata_servers_run CMD [ARGS...] : run CMD (stdin kept) and return its
# status. A TERM sent to this shell is passed on to CMD, and this shell does
# not wait for CMD to finish before it can react (bash defers traps while a
# foreground command runs). Ctrl-C reaches CMD through the terminal; this shell
# then returns CMD's status (130). The caller's INT/TERM traps are restored.
strata_servers_run() {
  local saved_int saved_term rc
  saved_int=$(trap -p INT); saved_term=$(trap -p TERM)
  # Without job control bash starts background commands with INT and QUIT
  # ignored; undo that so Ctrl-C still reaches CMD.
  ( trap - INT QUIT; exec "$@" ) <&0 &
  _STRATA_SERVERS_CHILD=$!
  trap ':' INT
  trap 'kill -TERM "$_STRATA_SERVERS_CHILD" 2>/dev/null || true' TERM
  local n=0
  while :; do
    rc=0
    unset _STRATA_SERVERS_WAITED
    wait -p _STRATA_SERVERS_WAITED "$_STRATA_SERVERS_CHILD" || rc=$?
    # -p stays unset when wait was cut short by a trapped signal: wait again.
    [ -z "${_STRATA_SERVERS_WAITED:-}" ] || break
    [ "$rc" != 127 ] || break
    n=$((n + 1)); [ "$n" -lt 1000 ] || break
  done
  trap - INT TERM
  eval "$saved_int"; eval "$saved_term"
  return "$rc"
}

# strata_servers_stop [DIR] : stop the servers this shell started (or those
# of DIR). Safe to call any number of times.
strata_servers_stop() {
  local R=${1:-${_STRATA_SERVERS_OWNED_DIR:-}} rc=0 f pg port
  if [ -z "$R" ] || [ ! -d "$R" ]; then
    if [ -z "${1:-}" ]; then _STRATA_SERVERS_OWNED_DIR=; fi
    return 0
  fi
  for f in "$R/run/apache.pgid" "$R/sabre/php.pgid" "$R/nginx/pgid" "$R/lighttpd/pgid" "$R/rclone/pgid" "$R/rclonefold/pgid" \
           "$R/copyparty/pgid" "$R/chezdav/pgid" "$R/oauth/pgid" "$R/keyring/keyring.pgid" "$R/keyring/bus.pgid"; do
    pg=$(cat "$f" 2>/dev/null) || pg=
    _strata_kill_group "$pg" || rc=1
  done
  # Nothing of ours may still listen.
  for f in "$R/run/apache.port" "$R/sabre/php.port" "$R/nginx/port" "$R/lighttpd/port" "$R/rclone/port" "$R/rclonefold/port" \
           "$R/copyparty/port" "$R/chezdav/port" "$R/oauth/port"; do
    port=$(cat "$f" 2>/dev/null) || port=
    if [ -n "$port" ] && _strata_port_listening "$port"; then
      _strata_log "warning: 127.0.0.1:$port still accepts connections after stop"; rc=1
    fi
  done
  if [ "${STRATA_KEEP_SERVERS_DIR:-0}" = 1 ]; then
    _strata_log "kept $R"
  else
    rm -rf "$R" 2>/dev/null || { _strata_log "could not remove $R"; rc=1; }
  fi
  if [ "$R" = "${_STRATA_SERVERS_OWNED_DIR:-}" ]; then
    _STRATA_SERVERS_OWNED_DIR=
    unset STRATA_APACHE_URL STRATA_SABRE_URL STRATA_NGINX_URL STRATA_LIGHTTPD_URL STRATA_RCLONE_URL \
          STRATA_RCLONEFOLD_URL STRATA_RCLONEFOLD_ROOT STRATA_COPYPARTY_URL STRATA_COPYPARTY_ROOT \
          STRATA_CHEZDAV_URL STRATA_CHEZDAV_ROOT STRATA_APACHE_DIGEST_URL STRATA_APACHE_DIGEST_ROOT \
          STRATA_LIGHTTPD_DIGEST_URL STRATA_LIGHTTPD_DIGEST_ROOT STRATA_OAUTH_URL \
          STRATA_NGINX_TLS_URL STRATA_TEST_CA STRATA_NGINX_TLS_LOG \
          STRATA_DAV_USER STRATA_DAV_PASS STRATA_SERVERS_DIR STRATA_APACHE_ROOT STRATA_SABRE_ROOT \
          STRATA_NGINX_ROOT STRATA_LIGHTTPD_ROOT STRATA_RCLONE_ROOT STRATA_TEST_KEYRING
    # The caller's session bus again (or none, as before).
    if [ -n "${_STRATA_KEYRING_SAVED_BUS+x}" ]; then
      if [ "$_STRATA_KEYRING_SAVED_BUS" = __unset__ ]; then unset DBUS_SESSION_BUS_ADDRESS
      else export DBUS_SESSION_BUS_ADDRESS=$_STRATA_KEYRING_SAVED_BUS; fi
      unset _STRATA_KEYRING_SAVED_BUS
    fi
  fi
  return "$rc"
}
