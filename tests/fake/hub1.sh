#!/usr/bin/env bash
# A strict Hub-1 engine for tests/match.rs: it accepts only the lines Scan 2.0's hub loop reads,
# in the forms it reads them, and exits with status 2 (a message on standard error) on anything
# else, so that a manager speaking Hub-1 wrongly loses its games instead of passing. Its moves
# come from the Tempo Hub engine named by the first argument, asked at depth 1 for the game as
# it was sent here; the checks are the point, not the play.
#
# Checked beyond the grammar: `init` before any game; a position (`start` or `pos`) before
# `move` and `go`; a limit (`depth`, `time` or `level`) sent after the last position, since a
# position resets Scan 2.0's limits; captures that list their captured squares (Scan 2.0 makes
# the move from exactly the squares given).
#
# With a second argument `refuse` it answers every `move` line `error illegal move`, as Scan 2.0
# answers a move that is not legal in its position, and then plays on from the position without it.
# With `slow` it waits 0.15 s before each move, whatever the limit: an engine that overruns the
# time a move, as Scan 2.0 does until it has finished depth 12.
tempo=$1
mode=$2
fail() {
  echo "fake-hub1: $*" >&2
  exit 2
}
[ -x "$tempo" ] || fail "usage: hub1.sh TEMPO"
# Scan 2.0 writes a banner before it reads anything.
echo "Fake Hub-1 engine"
coproc ENGINE { "$tempo" hub; }
ask() { echo "$1" >&"${ENGINE[1]}"; }
# Reads the Tempo engine's lines up to one starting with $1 (kept in $got); an `error` fails.
await() {
  while IFS= read -r got <&"${ENGINE[0]}"; do
    case "$got" in
      "$1"*) return 0 ;;
      error*) fail "tempo hub answered: $got" ;;
    esac
  done
  fail "tempo hub ended"
}
ask hub
await wait
ask init
await ready

sq='([1-9]|[1-4][0-9]|50)'
quiet="^$sq-$sq\$"
capture="^${sq}x$sq(x$sq)+\$"
int='^[0-9]+$'
start="Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
ready=0
pos=""
moves=""
limit=0
while IFS= read -r line; do
  read -r -a w <<<"$line"
  n=${#w[@]}
  case "${w[0]}" in
    hub)
      [ "$n" = 1 ] || fail "bad line: $line"
      echo "name Fake Hub-1"
      echo "author Tempo tests"
      echo "wait"
      ;;
    set) [ "$n" = 3 ] || fail "set takes a name and a value: $line" ;;
    init)
      [ "$n" = 1 ] || fail "bad line: $line"
      ready=1
      echo "ready"
      ;;
    new) [ "$n" = 1 ] && [ "$ready" = 1 ] || fail "new before init: $line" ;;
    start)
      [ "$n" = 1 ] && [ "$ready" = 1 ] || fail "bad line or no init: $line"
      pos=$start moves="" limit=0
      ;;
    pos)
      [ "$n" = 2 ] && [ "$ready" = 1 ] || fail "bad line or no init: $line"
      [[ ${w[1]} =~ ^[wb][wbWBe]{50}$ ]] || fail "not a Hub-1 position: $line"
      # Tempo's Hub writes the side in upper case.
      pos=${w[1]^} moves="" limit=0
      ;;
    move)
      [ "$n" = 2 ] && [ -n "$pos" ] || fail "a move without a position: $line"
      [[ ${w[1]} =~ $quiet || ${w[1]} =~ $capture ]] || fail "not a Hub-1 move: $line"
      if [ "$mode" = refuse ]; then
        echo "error illegal move"
      else
        moves="$moves ${w[1]}"
      fi
      ;;
    depth | time)
      [ "$n" = 2 ] && [[ ${w[1]} =~ $int ]] || fail "${w[0]} takes a whole number: $line"
      limit=1
      ;;
    level)
      [ "$n" = 4 ] && [[ ${w[1]} =~ $int && ${w[2]} =~ $int && ${w[3]} =~ $int ]] ||
        fail "level takes three whole numbers: $line"
      limit=1
      ;;
    go)
      [ "$n" = 1 ] && [ -n "$pos" ] || fail "go without a position: $line"
      [ "$limit" = 1 ] || fail "go without a limit after the position"
      ask "pos pos=$pos moves=\"${moves# }\""
      ask "level depth=1"
      ask "go think"
      await done
      [[ $got =~ move=([^ ]+) ]] || fail "tempo hub gave no move: $got"
      mv=${BASH_REMATCH[1]}
      [ "$mode" = slow ] && sleep 0.15
      echo "info 1 1.0 -12 20 0.00 0.0 $mv"
      echo "move $mv"
      ;;
    quit)
      ask quit
      exit 0
      ;;
    *) fail "not a Hub-1 command: $line" ;;
  esac
done
ask quit
