#!/usr/bin/env bash
# The libFuzzer target on the C API (fuzz/c_api.c): build it and run it.
#
#   fuzz/c_api.sh [SECONDS] [libFuzzer options...]     fuzz for SECONDS (default 600)
#   fuzz/c_api.sh --replay [FILES_OR_DIRS...]           replay inputs (default: the
#                                                        committed corpus) and stop
#
# 1. builds libmodlights.a in build/c-fuzz with clang (CLANG, default clang) and
#    -DMODLIGHTS_C=ON -DMODLIGHTS_FUZZ=ON: the library under ASan + UBSan with libFuzzer's
#    coverage instrumentation (only the static library's target is built);
# 2. links fuzz/c_api.c (and its pieces c_api_boards.c, c_api_texts.c) against it with -fsanitize=fuzzer,address,undefined
#    (build/c-fuzz/c_api_fuzz);
# 3. runs it in one process (one core) for SECONDS with memory capped (-rss_limit_mb=512
#    -malloc_limit_mb=256: a size the library should refuse is found as an allocation past
#    the cap), LeakSanitizer on, the dictionary fuzz/c_api.dict, the growing corpus in
#    build/c-fuzz/corpus/ and the seeds of fuzz/c_api_corpus/ (read only). A violated
#    invariant or a sanitizer report stops it: the input is saved in
#    build/c-fuzz/artifacts/ (add it to fuzz/c_api_corpus/ with the fix; the default test
#    run replays that directory: tests/test_fuzz_c_api.py).
#
# Exit status: libFuzzer's (0: ran clean for SECONDS). When clang cannot link libFuzzer
# (-fsanitize=fuzzer) the script says so and exits 0 without fuzzing (CI: .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=$ROOT/build/c-fuzz
CLANG=${CLANG:-clang}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v "$CLANG" >/dev/null 2>&1; then
  echo "fuzz/c_api.sh: SKIPPED: no clang ($CLANG; set CLANG=..., Debian: apt-get install clang)"
  exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
  >"$probe/p.c"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
  echo "fuzz/c_api.sh: SKIPPED: $CLANG cannot link libFuzzer (-fsanitize=fuzzer,address,undefined);" \
       "install its runtime (Debian: the clang package's libclang-rt / libclang-common dev package)"
  exit 0
fi

mkdir -p "$B"
CC=$CLANG cmake -S . -B "$B" -DMODLIGHTS_C=ON -DMODLIGHTS_FUZZ=ON -DCMAKE_BUILD_TYPE=Release >"$B/configure.log" \
  || { tail -20 "$B/configure.log"; exit 1; }
cmake --build "$B" --target modlights_static -j"$JOBS" >"$B/build.log" 2>&1 || { tail -50 "$B/build.log"; exit 1; }
FLAGS=(-std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=undefined -Wall -Wextra
       -Wno-unused-parameter -I"$ROOT/csrc")
"$CLANG" "${FLAGS[@]}" -fsanitize=fuzzer,address,undefined fuzz/c_api.c fuzz/c_api_boards.c fuzz/c_api_texts.c "$B/libmodlights.a" \
  -lpthread -lm -o "$B/c_api_fuzz"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
if [ "${1:-}" = "--replay" ]; then
  shift
  [ $# -gt 0 ] || set -- "$ROOT/fuzz/c_api_corpus"
  exec "$B/c_api_fuzz" -runs=0 -rss_limit_mb=512 -malloc_limit_mb=256 "$@"
fi
SECS=${1:-600}; shift || true
mkdir -p "$B/corpus" "$B/artifacts"
cd "$B"
echo "fuzz/c_api.sh: fuzzing the C API for $SECS s (one job; corpus $B/corpus, seeds fuzz/c_api_corpus)"
exec "$B/c_api_fuzz" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=512 \
  -malloc_limit_mb=256 -max_len=4096 -dict="$ROOT/fuzz/c_api.dict" -print_final_stats=1 \
  -artifact_prefix="$B/artifacts/" "$@" "$B/corpus" "$ROOT/fuzz/c_api_corpus"
