#!/usr/bin/env bash
# kedb consume throughput against librdkafka's mock cluster (three brokers in
# the harness process, on this machine): MESSAGES job logs of about 5 KB,
# written before the consumers start, read by one and then two consumers
# of one group.
#
#   bash bench/kafka.sh            # MESSAGES=20000 PARTITIONS=32 BATCH=500 RUNS=3
#   LINES=1 bash bench/kafka.sh    # each log a line a message, gathered (--gather; BATCH=5000)
#
# The mock keeps only the last few megabytes of each partition (older
# messages are deleted, as retention would), so the logs are spread over
# 32 partitions: about 3 MB each.
#
# "flowing" rates run from the first result to the last (the group formed);
# "overall" from starting the consumers. The brokers, the harness and the
# consumers share the machine's cores, so two consumers on two cores show
# less than twice one.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
MESSAGES=${MESSAGES:-20000}
PARTITIONS=${PARTITIONS:-32}
LINES=${LINES:-0}
# kedb consume --batch: each batch waits for its acknowledgements and
# commit, so a line a message wants batches of more messages.
if [[ $LINES == 1 ]]; then BATCH=${BATCH:-5000}; else BATCH=${BATCH:-500}; fi
mode=()
[[ $LINES == 1 ]] && mode=(--lines --gather 5)
echo "| consumers | logs | input messages | MB | flowing logs/s | flowing input msg/s | flowing MB/s | overall logs/s | first result after | duplicates | missing |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
# Runs alternate one and two consumers, RUNS times each: the machine is
# shared and a run lasts seconds, so read the spread, not one row.
RUNS=${RUNS:-3}
for ((run = 0; run < 2 * RUNS; ++run)); do
  consumers=$((run % 2 + 1))
  out=$("$BUILD/kedb-kafka-harness" --kedb "$BUILD/kedb" --kb kb --messages "$MESSAGES" \
        --partitions "$PARTITIONS" --consumers "$consumers" --batch "$BATCH" --timeout 300 "${mode[@]}")
  python3 -c '
import json, sys
j = json.loads(sys.argv[1])
per_log = j["input_messages"] / j["messages"]
print("| {consumers} | {messages} | {inputs} | {mb:.0f} | {fm:.0f} | {fim:.0f} | {fmb:.1f} | {om:.0f} | {first:.1f} s | {duplicates} | {missing} |".format(
    consumers=j["consumers"], messages=j["messages"], inputs=j["input_messages"], mb=j["bytes"] / 2**20,
    fm=j["flowing_messages_per_s"], fim=j["flowing_messages_per_s"] * per_log, fmb=j["flowing_mb_per_s"],
    om=j["messages_per_s"], first=j["first_result_s"], duplicates=j["duplicates"], missing=j["missing"]))' "$out"
done
