#!/usr/bin/env bash
# A broken Hub engine for tests/match.rs. It completes the handshake like any Hub engine and then,
# when asked to move, does what its first argument says:
#   illegal  answers `done move=1-2` (never legal: 1 and 2 are on the same row);
#   crash    exits with status 3;
#   hang     never answers (it keeps reading its input, so killing it leaves nothing behind);
#   nomove   answers a bare `done`.
mode=$1
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
      esac
      ;;
  esac
done
