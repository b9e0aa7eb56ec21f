#!/bin/bash
# Speed and tree size of the network against the pattern tables, one binary:
#   scripts/network/speed.sh TEMPO NETFILE DEPTH [POSITIONS]
# Each position (one PDN FEN a line; default benches/side_by_side_positions.txt) is searched to
# DEPTH with `tempo search --tt 64`, with the pattern weights (`--eval-file '<learned>'`) and with
# the network in NETFILE (`TEMPO_NET=NETFILE`, `--eval-file '<network>'`). Prints each position's nodes, seconds and nodes/s,
# then the totals and the network's nodes/s, nodes and time over the tables'.
set -euo pipefail
B=$1; N=$2; D=$3; P=${4:-$(dirname "$0")/../../benches/side_by_side_positions.txt}
field() { awk -v f="$1" '{for (i = 1; i < NF; i++) if ($i == f) print $(i + 1)}'; }
while read -r fen; do
  [ -z "$fen" ] && continue
  a=$("$B" search --fen "$fen" --depth "$D" --tt 64 --eval-file "<learned>" | grep "^depth $D " | tail -1)
  b=$(TEMPO_NET=$N "$B" search --fen "$fen" --depth "$D" --tt 64 --eval-file "<network>" | grep "^depth $D " | tail -1)
  echo "$(echo "$a" | field nodes) $(echo "$a" | field time) $(echo "$b" | field nodes) $(echo "$b" | field time)"
done < "$P" | awk '
  { tn += $1; tt += $2; nn += $3; nt += $4
    printf "tables %9d %6.3f s %8.0f nps | network %9d %6.3f s %8.0f nps | nps ratio %.3f\n", $1, $2, $1 / $2, $3, $4, $3 / $4, ($3 / $4) / ($1 / $2) }
  END { printf "total: tables %d nodes %.2f s; network %d nodes %.2f s; nodes/s ratio %.3f, nodes ratio %.3f, time ratio %.3f\n", tn, tt, nn, nt, (nn / nt) / (tn / tt), nn / tn, nt / tt }'
