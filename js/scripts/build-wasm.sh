#!/bin/sh
# Build js/dist/modlights.wasm from the portable C of csrc/, exporting the C API
# functions listed in csrc/wasm/exports.list as they are (plus the export_name
# wrappers of csrc/wasm/exports.c), with clang --target=wasm32-wasi, wasi-libc and
# wasm-ld (Debian: clang, lld, wasi-libc, libclang-rt-dev-wasm32), and write js/dist/csrc.sha256 beside
# it: the SHA-256 of the C sources it was built from (not of the .wasm: over the sorted
# C sources and headers compiled, each as its path, a NUL, its bytes, a NUL), so a test
# can tell a stale build.
#
# Two builds of the same sources: $OUT (default js/dist/modlights.wasm) with WebAssembly
# SIMD128 (autovectorised), and its -baseline.wasm sibling without, which js/src/core.js
# loads where SIMD does not validate (runtime dispatch, as the native build's AVX2 / AVX-512
# clones with their plain C fallback).
#
# Usage: js/scripts/build-wasm.sh
# Environment: CLANG (default clang or clang-14), WASI_SYSROOT (default /usr).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here"
CLANG=${CLANG:-$(command -v clang || command -v clang-14)}
SYSROOT=${WASI_SYSROOT:-/usr}
RESDIR=$($CLANG -print-resource-dir)
OUT=${OUT:-js/dist/modlights.wasm}
BASE=${OUT%.wasm}-baseline.wasm

SOURCES=$(python3 js/scripts/wasm_sources.py list)
OBJ=$(mktemp -d)
trap 'rm -rf "$OBJ"' EXIT
mkdir -p "$(dirname "$OUT")"
# build EXTRA_FLAGS TARGET: compile every source with the flags, link TARGET
build() {
    CFLAGS="--target=wasm32-wasi -nostdinc -isystem $RESDIR/include -isystem $SYSROOT/include/wasm32-wasi \
 -Icsrc/wasm/shim -Icsrc -O3 -std=gnu11 -DNDEBUG -mbulk-memory -mnontrapping-fptoint -msign-ext $1 \
 -ffunction-sections -fdata-sections -Wall -Wno-unused-function"
    rm -f "$OBJ"/*.o
    i=0
    for f in $SOURCES; do
        i=$((i + 1))
        $CLANG $CFLAGS -c "$f" -o "$OBJ/$i.o"
    done
    $CLANG --target=wasm32-wasi --sysroot="$SYSROOT" -mexec-model=reactor -O3 "$OBJ"/*.o -o "$2" \
        -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=aligned_alloc -Wl,--wrap=free \
        -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=4194304 \
        -Wl,--initial-memory=16777216 -Wl,--max-memory=4294967296 \
        $(for f in $(cat csrc/wasm/exports.list); do printf -- '-Wl,--export=%s ' "$f"; done)
}
build "-msimd128" "$OUT"
build "" "$BASE"
python3 js/scripts/wasm_sources.py sha256 > "$(dirname "$OUT")/csrc.sha256"
for f in "$OUT" "$BASE"; do
    echo "built $f ($(wc -c < "$f") bytes, gzip $(gzip -9c "$f" | wc -c) bytes)"
done
