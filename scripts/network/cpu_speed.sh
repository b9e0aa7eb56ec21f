#!/bin/bash
# Nodes per second of CPU time, the pattern tables against the network, for binaries compared in
# one run (for a machine loaded by other work, where wall-clock times vary by a factor of two):
#   scripts/network/cpu_speed.sh DEPTH ROUNDS TEMPO...
# Each round searches every position of benches/side_by_side_positions.txt to DEPTH with
# `tempo search --tt 64`, with each binary in turn and each evaluation in turn (`--eval-file
# '<learned>'`, then `'<network>'`), and counts the process's CPU time (`perf stat -e
# task-clock`) less its start-up (the median of five depth-1 searches of the same binary and
# evaluation). Prints the totals of each binary and evaluation, and each binary's ratio.
set -euo pipefail
D=$1; R=$2; shift 2
P=$(dirname "$0")/../../benches/side_by_side_positions.txt
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cpu() { perf stat -x, -e task-clock -o "$T/stat" "$@" > "$T/out"; grep task-clock "$T/stat" | cut -d, -f1; }
declare -A start
for b in "$@"; do for e in '<learned>' '<network>'; do
  start["$b $e"]=$(for i in 1 2 3 4 5; do cpu "$b" search --depth 1 --tt 64 --eval-file "$e"; done | sort -n | sed -n 3p)
done; done
for r in $(seq 1 "$R"); do
  while read -r fen; do
    [ -z "$fen" ] && continue
    for b in "$@"; do for e in '<learned>' '<network>'; do
      ms=$(cpu "$b" search --fen "$fen" --depth "$D" --tt 64 --eval-file "$e")
      nodes=$(grep "^depth $D " "$T/out" | tail -1 | awk '{for (i = 1; i < NF; i++) if ($i == "nodes") print $(i + 1)}')
      echo "$b $e $nodes $ms ${start["$b $e"]}"
    done; done
  done < "$P"
done | awk '{ k = $1 " " $2; n[k] += $3; t[k] += $4 - $5; b[$1] = 1 }
  END {
    for (x in b) {
      l = x " <learned>"; w = x " <network>"
      printf "%s: tables %d nodes %.2f s %.0f nps; network %d nodes %.2f s %.0f nps; nodes/s ratio %.3f\n", x, n[l], t[l] / 1000, n[l] / (t[l] / 1000), n[w], t[w] / 1000, n[w] / (t[w] / 1000), (n[w] / t[w]) / (n[l] / t[l])
    }
  }'
