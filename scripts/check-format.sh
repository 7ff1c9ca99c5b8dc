#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what the repository's
# .clang-format makes of it, naming each file (the test command runs this
# first). `scripts/check-format.sh --fix` rewrites them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z "$fmt" ]]; then
  echo "check-format: clang-format (14) is not installed (apt-get install clang-format-14)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- '*.h' '*.cc' '*.cpp')
if ((${#files[@]} == 0)); then
  echo "check-format: no C++ files found: is this the repository?" >&2
  exit 2
fi
if [[ "${1:-}" == "--fix" ]]; then
  "$fmt" -i -- "${files[@]}"
  echo "check-format: formatted ${#files[@]} files with $("$fmt" --version)"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] || continue  # deleted in the worktree, not yet committed
  if ! "$fmt" --dry-run -Werror -- "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]})); then
  printf 'check-format: %d of %d files differ from .clang-format:\n' "${#bad[@]}" "${#files[@]}" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format ($("$fmt" --version))"
