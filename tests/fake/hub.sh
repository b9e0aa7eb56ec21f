#!/usr/bin/env bash
# A broken Hub engine for tests/match.rs. It completes the handshake like any Hub engine and then,
# when asked to move, does what its first argument says:
#   illegal  answers `done move=1-2` (never legal: 1 and 2 are on the same row);
#   crash    exits with status 3;
#   hang     never answers (it keeps reading its input, so killing it leaves nothing behind);
#   nomove   answers a bare `done`;
#   flood    writes `info` lines without end and never `done`;
#   noeol    writes one endless line (zero bytes, no newline);
#   noise    writes to standard error without end and never answers.
# Mode `dies` writes a line to standard error and exits with status 7 before reading anything.
# Mode `spawner` starts a long `sleep` in the background (with the number given as its second
# argument) and then plays as `illegal`: the sleep must not outlive the match.
mode=$1
if [ "$mode" = spawner ]; then
  sleep "$2" </dev/null >/dev/null 2>&1 &
  mode=illegal
fi
if [ "$mode" = dies ]; then
  echo "fake-dies: cannot load its weights" >&2
  exit 7
fi
while IFS= read -r line; do
  case "$line" in
    hub) echo "id name=fake-$mode version=1"; echo "wait" ;;
    init) echo "ready" ;;
    quit) exit 0 ;;
    go*)
      case "$mode" in
        illegal) echo "done move=1-2" ;;
        crash) exit 3 ;;
        nomove) echo "done" ;;
        hang) ;;
        flood) exec yes "info depth=1 score=0.10 nodes=1" ;;
        noeol) exec cat /dev/zero ;;
        # fd 3 keeps standard output open: the engine is alive, only noisy.
        noise) exec 3>&1; exec yes "fake noise on standard error" >&2 ;;
      esac
      ;;
  esac
done
