#!/usr/bin/env bash
# Usage: scripts/with-servers Benchmarks/h2-vs-h1.sh   (BIN: a release strata; RTT: the delay in ms; BENCH_DIR: keep the files)
# Inside scripts/with-servers: 1,000 files of 4 KiB up (strata copy) and down, over TLS to nginx,
# HTTP/2 against --disable-http2, directly and behind the delay proxy at RTT ms.
set -euo pipefail
RTT=${RTT:-20}
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/strata}
W=${BENCH_DIR:-$(mktemp -d)}
rm -rf $W/src $W/down* $W/cache $W/ready; mkdir -p $W/src
for i in $(seq 1000); do head -c 4096 /dev/urandom > $W/src/f$i.bin; done
export XDG_CACHE_HOME=$W/cache XDG_CONFIG_HOME=$W/config STRATA_USER=$STRATA_DAV_USER STRATA_PASSWORD=$STRATA_DAV_PASS STRATA_KEYRING=off
tport=${STRATA_NGINX_TLS_URL#https://127.0.0.1:}; tport=${tport%/}
python3 "$(dirname "$0")/../scripts/lib/delay-proxy.py" --rtt-ms "$RTT" --ready-file $W/ready 0:$tport & proxy=$!
trap "kill $proxy; [ -n \"${BENCH_DIR:-}\" ] || rm -rf $W" EXIT
for _ in $(seq 50); do [ -s $W/ready ] && break; sleep 0.1; done
pport=$(cut -d' ' -f1 $W/ready)
warm="webdavs://127.0.0.1:$tport/warm"
$BIN mkdir --ca-cert $STRATA_TEST_CA $warm >/dev/null
for round in 1 2 3; do
  for mode in h2 h1; do
    flag=; [ $mode = h1 ] && flag=--disable-http2
    for where in direct proxy; do
      port=$tport; [ $where = proxy ] && port=$pport
      dest="webdavs://127.0.0.1:$port/$mode-$where-$round"
      up=$( { /usr/bin/time -f %e $BIN copy --ca-cert $STRATA_TEST_CA $flag $W/src/ $dest/ >/dev/null; } 2>&1 | tail -1)
      down=$( { /usr/bin/time -f %e $BIN copy --ca-cert $STRATA_TEST_CA $flag $dest/ $W/down-$mode-$where-$round/ >/dev/null; } 2>&1 | tail -1)
      echo "$round $mode $where up $up down $down"
    done
  done
done
grep -c "HTTP/2.0" $STRATA_NGINX_TLS_LOG || true
grep -c "HTTP/1.1" $STRATA_NGINX_TLS_LOG || true
