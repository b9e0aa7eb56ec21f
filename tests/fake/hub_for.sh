#!/usr/bin/env bash
# A Hub engine that plays as `tempo hub` (the program given as the first argument) for as many
# moves as the second argument says, then exits with status 3 when asked for one more: its output
# closes in the middle of a game. For the crash tests of `tempo selfplay --opponent`.
left=$2
while IFS= read -r line; do
  case "$line" in
    go*)
      if [ "$left" -le 0 ]; then exit 3; fi
      left=$((left - 1))
      ;;
  esac
  printf '%s\n' "$line"
done | "$1" hub
