#!/bin/sh
# Build js/dist/modlights.wasm from the portable C of csrc/, exporting the C API
# functions listed in csrc/wasm/exports.list as they are (plus the export_name
# wrappers of csrc/wasm/exports.c), with clang --target=wasm32-wasi, wasi-libc and
# wasm-ld (Debian: clang, lld, wasi-libc, libclang-rt-dev-wasm32), and write js/dist/csrc.sha256 beside
# it: the SHA-256 of the C sources it was built from (not of the .wasm: over the sorted
# C sources and headers compiled, each as its path, a NUL, its bytes, a NUL), so a test
# can tell a stale build.
#
# Usage: js/scripts/build-wasm.sh [--simd]   (--simd: WebAssembly SIMD128 autovectorised)
# Environment: CLANG (default clang or clang-14), WASI_SYSROOT (default /usr).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
CLANG=${CLANG:-$(command -v clang || command -v clang-14)}
SYSROOT=${WASI_SYSROOT:-/usr}
RESDIR=$($CLANG -print-resource-dir)
OUT=${OUT:-js/dist/modlights.wasm}
EXTRA=""
if [ "${1:-}" = "--simd" ]; then EXTRA="-msimd128"; fi

SOURCES=$(python3 js/scripts/wasm_sources.py list)
OBJ=$(mktemp -d)
trap 'rm -rf "$OBJ"' EXIT
CFLAGS="--target=wasm32-wasi -nostdinc -isystem $RESDIR/include -isystem $SYSROOT/include/wasm32-wasi \
 -Icsrc/wasm/shim -Icsrc -O3 -std=gnu11 -DNDEBUG -mbulk-memory -mnontrapping-fptoint -msign-ext $EXTRA \
 -ffunction-sections -fdata-sections -Wall -Wno-unused-function"
i=0
for f in $SOURCES; do
    i=$((i + 1))
    $CLANG $CFLAGS -c "$f" -o "$OBJ/$i.o"
done
mkdir -p "$(dirname "$OUT")"
$CLANG --target=wasm32-wasi --sysroot="$SYSROOT" -mexec-model=reactor -O3 "$OBJ"/*.o -o "$OUT" \
    -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=aligned_alloc -Wl,--wrap=free \
    -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=4194304 \
    -Wl,--initial-memory=16777216 -Wl,--max-memory=4294967296 \
    $(for f in $(cat csrc/wasm/exports.list); do printf -- '-Wl,--export=%s ' "$f"; done)
python3 js/scripts/wasm_sources.py sha256 > "$(dirname "$OUT")/csrc.sha256"
echo "built $OUT ($(wc -c < "$OUT") bytes, gzip $(gzip -9c "$OUT" | wc -c) bytes)"
