"""The C sources of the WebAssembly build and their SHA-256 (js/dist/csrc.sha256: the
digest of the sources js/dist/modlights.wasm was built from, not of the .wasm).

``python3 js/scripts/wasm_sources.py list`` prints the .c files compiled (sorted);
``... sha256`` prints the digest over every file that can change the build: those .c
files, every header under csrc/ and csrc/wasm/exports.list (the C API functions the
module exports as they are) (sorted by path; each as its path, a NUL byte, its
bytes, a NUL byte). Run from the repository root or anywhere (paths are found from this
file). The C tests (csrc/tests/) are not part of the build.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sources() -> list[str]:
    """The .c files compiled into the .wasm, relative to the repository root, sorted."""
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "csrc").rglob("*.c")
                  if "tests" not in p.relative_to(ROOT / "csrc").parts)


def inputs() -> list[str]:
    """Every file the digest covers: the sources and every header under csrc/."""
    headers = [p.relative_to(ROOT).as_posix() for p in (ROOT / "csrc").rglob("*.h")
               if "tests" not in p.relative_to(ROOT / "csrc").parts]
    return sorted(set(sources()) | set(headers) | {"csrc/wasm/exports.list"})


def digest() -> str:
    h = hashlib.sha256()
    for rel in inputs():
        h.update(rel.encode() + b"\0" + (ROOT / rel).read_bytes() + b"\0")
    return h.hexdigest()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "sha256"
    if what == "list":
        print("\n".join(sources()))
    elif what == "sha256":
        print(digest())
    else:
        sys.exit(f"usage: {sys.argv[0]} list|sha256")
