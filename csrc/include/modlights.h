/* modlights.h: the public C API of modlights (libmodlights).
 *
 * modlights solves, analyses and generates modular "Lights Out" puzzles: a board of
 * tiles with n states (2..255; 0 = solved); tapping a tile advances every tile of a
 * pattern around it by one, mod n. Solving means finding tap counts x with
 * s + A x = t (mod n). This header is the one contract every binding wraps (Python
 * through Cython, JavaScript through WebAssembly) and the only header a C program
 * includes; docs/reference/c.md is its reference page.
 *
 * Conventions (every function follows them):
 *  - Names are ml_<type>_<verb>. Handles are opaque pointers (ml_board, ml_solver,
 *    ml_result, ml_plan, ml_puzzle, ...), made by a function that returns a status and
 *    writes the handle through its last argument, released by ml_<type>_free (NULL is
 *    fine there).
 *  - A function that can fail returns an int status: ML_OK (0) or one of ml_status.
 *    Its results go to out-parameters, written only on ML_OK. The failure's message
 *    (one line, the text Python raises for the same input) is read with
 *    ml_errmsg(ctx), its kind with ml_errcode(ctx), its table entry with
 *    ml_errmsg_id(ctx).
 *  - Functions that cannot fail (properties of a live handle) return the value; given
 *    NULL they return 0 (or NULL).
 *  - The first argument of every function that can fail or run long is an ml_ctx: the
 *    error slot, the stop flag, the progress callback and the thread budget of the
 *    calling thread. NULL means the calling thread's default context (made on first
 *    use, freed at thread exit).
 *  - Arrays are caller-owned: the caller passes buffers of the documented length and
 *    keeps them. Arrays a handle owns (ml_result_taps, ...) stay valid until that
 *    handle is freed. Text written into caller buffers follows snprintf: at most
 *    cap - 1 bytes and a NUL are written, *len receives the full length.
 *  - States, targets and taps are one byte a value, row-major, board-shaped for grids
 *    (rows * cols bytes: ml_board_size), one byte a cell for graph boards; tap counts
 *    are ml_board_taps_size bytes (rows * cols for grids, 0 at locked tiles and holes;
 *    n_taps for graph boards). Input values are reduced mod n; entries at holes are
 *    ignored on input and 0 on output.
 *
 * Status of this release: the declarations are complete; only the version functions,
 * the status and message tables and the error slot are implemented. Every other
 * function returns ML_ENOTIMPL (message "<name> is not implemented yet ...") until
 * its work package lands (docs/design/one-c-library.md).
 */
#ifndef MODLIGHTS_H
#define MODLIGHTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ML_API marks the exported functions (the shared library exports these and nothing
 * else). Define ML_STATIC when linking the static library on Windows. */
#if defined(_WIN32) && !defined(ML_STATIC)
#if defined(ML_BUILDING)
#define ML_API __declspec(dllexport)
#else
#define ML_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define ML_API __attribute__((visibility("default")))
#else
#define ML_API
#endif

/* ================================================================== version */

#define ML_VERSION_MAJOR 0
#define ML_VERSION_MINOR 1
#define ML_VERSION_PATCH 0
/* The version this header declares, as text; the same as the Python package's
 * modlights.__version__ and the npm package's version. */
#define ML_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH: compare with ml_version() to find a header and
 * library of different releases. */
#define ML_VERSION (ML_VERSION_MAJOR * 10000 + ML_VERSION_MINOR * 100 + ML_VERSION_PATCH)

/* ML_VERSION of the library linked (may differ from the header's after an upgrade). */
ML_API int ml_version(void);
/* ML_VERSION_STRING of the library linked (static storage). */
ML_API const char *ml_version_string(void);

/* ================================================================== limits
 * The limits of the Python package, the same everywhere (their messages say them). */
#define ML_MIN_STATES 2
#define ML_MAX_STATES 255
#define ML_MAX_SIDE ((int64_t)1 << 20)       /* rows and cols of a grid */
#define ML_MAX_TILES ((int64_t)1 << 27)      /* tiles, except uniform grids (giant boards) */
#define ML_MAX_DENSE ((uint64_t)1 << 32)     /* entries of a dense tap matrix */
#define ML_MAX_REACH 1024                    /* |dr|, |dc| of a pattern offset */
#define ML_MAX_OFFSETS 4096                  /* offsets of one pattern, repeats included */
#define ML_MAX_BUDGET ((uint64_t)INT64_MAX)  /* coset elements; larger budgets mean this */
#define ML_MAX_PRIMES 4                      /* distinct primes of an n <= 255 */

/* ================================================================== status codes
 * The kinds of failure. Each has a stable name (ml_status_name: the same strings as
 * the JavaScript errors' .code) and maps to one exception class per binding: Python
 * raises ValueError for the ML_E codes below ML_EINTERRUPTED (Unsolvable for
 * ML_EUNSOLVABLE), KeyboardInterrupt for ML_EINTERRUPTED, MemoryError for ML_ENOMEM,
 * RuntimeError for the rest. Codes are never renumbered; new ones are appended. */
typedef enum ml_status {
    ML_OK = 0,
    ML_EINVAL = 1,        /* INVALID_VALUE: a value that is not allowed */
    ML_ERANGE = 2,        /* OUT_OF_RANGE: a number outside its range, a position off the board */
    ML_ESHAPE = 3,        /* INVALID_SHAPE: sizes that do not match the board */
    ML_ETOOLARGE = 4,     /* TOO_LARGE: past a memory or work limit, refused before allocating */
    ML_ECODE = 5,         /* INVALID_PUZZLE_CODE: not a valid puzzle code */
    ML_EIMPOSSIBLE = 6,   /* IMPOSSIBLE: settings no puzzle can meet (generate) */
    ML_EUNSOLVABLE = 7,   /* UNSOLVABLE: no tap counts take the state to the target */
    ML_ENOTCOVERED = 8,   /* NOT_COVERED: no engine asked for covers the board */
    ML_EUNAVAILABLE = 9,  /* UNAVAILABLE: the question has no answer here (det of a
                             non-square matrix, a singular inverse, no certificate) */
    ML_EINTERRUPTED = 10, /* INTERRUPTED: stopped by ml_ctx_stop or the progress callback */
    ML_ENOMEM = 11,       /* OUT_OF_MEMORY: an allocation failed (nothing leaked) */
    ML_EMISUSE = 12,      /* MISUSE: NULL where a handle is needed, a freed handle */
    ML_ECALLBACK = 13,    /* CALLBACK_FAILED: a registered engine's callback failed */
    ML_ENOTIMPL = 14,     /* NOT_IMPLEMENTED: declared, not implemented in this release */
    ML_EINTERNAL = 15,    /* INTERNAL: an internal check failed (a bug: please report it) */
    ML_STATUS_COUNT = 16
} ml_status;

/* The stable name of a status ("OK", "INVALID_VALUE", ...; "UNKNOWN" for others). */
ML_API const char *ml_status_name(int status);
/* A short English description of a status ("a value that is not allowed", ...). */
ML_API const char *ml_strerror(int status);

/* ================================================================== the message table
 * Every message the library raises, one entry each: X(id, status, template). The
 * template is a printf format; where Python shows a value with repr() (strings in
 * quotes, tuples), the argument is that text already formatted. Ids are stable (new
 * ones are appended); texts follow the Python package's and may be reworded with it.
 * Entries with status ML_OK are the plan's reasons (why an engine answers or was
 * passed over), not errors. docs/reference/c.md shows this table with its sources. */
#define ML_MESSAGES(X)                                                                    \
    X(ML_M_NONE, ML_OK, "")                                                               \
    /* ---- the library */                                                                \
    X(ML_M_NOT_IMPLEMENTED, ML_ENOTIMPL,                                                  \
      "%s is not implemented yet in libmodlights %s")                                     \
    X(ML_M_NOMEM, ML_ENOMEM, "out of memory in %s")                                       \
    X(ML_M_INTERRUPTED, ML_EINTERRUPTED, "native work was interrupted")                   \
    X(ML_M_NULL_ARGUMENT, ML_EMISUSE, "%s: %s must not be NULL")                          \
    X(ML_M_DEAD_HANDLE, ML_EMISUSE, "%s: not a live %s (freed, or never made)")           \
    X(ML_M_BUSY, ML_EMISUSE,                                                              \
      "%s: the %s is in use by another call (one thread at a time)")                      \
    X(ML_M_INTERNAL, ML_EINTERNAL, "internal error in %s: %s (a bug: please report it)")  \
    X(ML_M_CALLBACK, ML_ECALLBACK, "the engine %s failed in %s without a message")        \
    /* ---- integers (model/validation.py as_int) */                                      \
    X(ML_M_INT_RANGE, ML_ERANGE, "%s must be from %lld to %lld, got %lld")                \
    X(ML_M_INT_MIN, ML_ERANGE, "%s must be >= %lld, got %lld")                            \
    X(ML_M_TOO_MANY_ITEMS, ML_ETOOLARGE, "%s has more than %lld items")                   \
    /* ---- boards (model/board.py, model/patterns.py) */                                 \
    X(ML_M_BOARD_TOO_LARGE, ML_ETOOLARGE,                                                 \
      "board too large: %lldx%lld = %lld tiles; more than %lld tiles are allowed only "   \
      "for uniform boards (one pattern, no locked tiles or holes)")                       \
    X(ML_M_GIANT_PER_TILE, ML_ETOOLARGE,                                                  \
      "%s of this %lldx%lld board would need %.1f GiB (%d byte%s a tile, %lld tiles, "    \
      "more than MAX_TILES = %lld); a board this large is described by its shape and "    \
      "pattern alone: use Solver(board).nullity / rank / kernel_size, or "                \
      "Solver(board).solve_packed with np.packbits(state, axis=1) states (n = 2: the "    \
      "cross family, left-right symmetric 3 x 3 patterns such as diagonal, and square, "  \
      "horizontal, vertical and other product patterns)")                                 \
    X(ML_M_PATTERN_UNKNOWN, ML_EINVAL,                                                    \
      "unknown pattern %s: use one of 'cross', 'diagonal', 'square', 'horizontal', "      \
      "'vertical', 'knight', or a sequence of (dr, dc) offsets")                          \
    X(ML_M_PATTERN_REACH, ML_ERANGE,                                                      \
      "pattern offset (%lld, %lld) reaches further than %d tiles")                        \
    X(ML_M_MIXED_ROWS, ML_ESHAPE,                                                         \
      "a mixed pattern needs %lld rows of %lld entries, got %lld rows")                   \
    X(ML_M_MIXED_ROW_LENGTH, ML_ESHAPE,                                                   \
      "mixed pattern row %lld has %lld entries, the board has %lld columns")              \
    X(ML_M_PALETTE_INDEX, ML_ERANGE,                                                      \
      "tile (%lld, %lld) uses palette entry %lld, the palette has %lld")                  \
    X(ML_M_OFF_BOARD, ML_ERANGE, "%s (%lld, %lld) is off the board: rows 0..%lld, "       \
                                 "cols 0..%lld")                                          \
    X(ML_M_LOCKED_AND_HOLE, ML_EINVAL,                                                    \
      "tile (%lld, %lld) is both locked and a hole; a tile may be one or the other")      \
    X(ML_M_CELL_INDEX_RANGE, ML_ERANGE, "cell index %lld out of range: cells are 0..%lld") \
    X(ML_M_CELL_INDEX_MAX, ML_ERANGE,                                                     \
      "cell index %lld out of range: a board has at most %lld cells")                     \
    X(ML_M_CELL_INDEX_TOO_LARGE, ML_ERANGE,                                               \
      "cell index %lld is too large: a board has at most %lld cells")                     \
    X(ML_M_MATRIX_TOO_LARGE, ML_ETOOLARGE,                                                \
      "matrix %llux%llu is too large (at most %llu entries)")                             \
    X(ML_M_DENSE_TOO_LARGE, ML_ETOOLARGE,                                                 \
      "the dense matrix would have %llux%llu entries, more than %llu; use the "           \
      "structured solvers for boards this large")                                         \
    X(ML_M_TAP_HOLE, ML_EINVAL, "cannot tap (%lld, %lld): it is a hole")                  \
    X(ML_M_TAP_LOCKED, ML_EINVAL, "cannot tap (%lld, %lld): it is locked")                \
    X(ML_M_TAP_RANGE, ML_ERANGE, "tap %lld out of range: taps are 0..%lld")               \
    X(ML_M_CELL_RANGE, ML_ERANGE, "cell %lld out of range: cells are 0..%lld")            \
    X(ML_M_CELL_HOLE, ML_EINVAL, "(%lld, %lld) is a hole, not a tile")                    \
    X(ML_M_NOT_A_GRID, ML_EINVAL, "%s needs a grid board (Board.grid)")                   \
    /* ---- board JSON (model/board_dict.py, model/validation.py check_mapping) */        \
    X(ML_M_JSON_SYNTAX, ML_EINVAL, "%s is not valid JSON: %s at byte %llu")               \
    X(ML_M_JSON_NOT_OBJECT, ML_EINVAL, "%s must be a dict (JSON object), got %s")         \
    X(ML_M_JSON_UNKNOWN_FIELD, ML_EINVAL, "%s has unknown field %s; allowed fields: %s")  \
    X(ML_M_JSON_MISSING_FIELD, ML_EINVAL, "%s needs the field %s (required: %s%s)")       \
    X(ML_M_JSON_FIELD, ML_EINVAL, "%s: %s")                                               \
    X(ML_M_JSON_MASK_TYPE, ML_EINVAL,                                                     \
      "%s must be a list of [row, col] pairs or a %lldx%lld nested list of booleans, "    \
      "got %s")                                                                           \
    X(ML_M_JSON_MASK_SHAPE, ML_ESHAPE, "%s as a mask must be %lld rows of %lld booleans") \
    X(ML_M_JSON_MASK_COUNT, ML_ETOOLARGE, "%s lists %llu positions, the board has %lld "  \
                                          "tiles")                                        \
    X(ML_M_JSON_MASK_ENTRY, ML_EINVAL, "%s entries must be [row, col] pairs of ints, "    \
                                       "got %s")                                          \
    X(ML_M_JSON_PATTERN_TYPE, ML_EINVAL,                                                  \
      "pattern must be a name, a list of [dr, dc] pairs or a %lldx%lld nested list of "   \
      "those, got %s")                                                                    \
    X(ML_M_JSON_MIXED_SHAPE, ML_ESHAPE,                                                   \
      "a mixed pattern must be %lld lists of %lld entries (names or lists of [dr, dc] "   \
      "pairs), one per tile")                                                             \
    X(ML_M_JSON_MIXED_ROW, ML_ESHAPE, "a mixed pattern is %lld lists of %lld entries, "   \
                                      "got a %s row")                                     \
    X(ML_M_JSON_PATTERN_ENTRY, ML_EINVAL,                                                 \
      "a pattern is a name or a list of [dr, dc] pairs, got %s")                          \
    X(ML_M_JSON_OFFSETS, ML_EINVAL, "pattern offsets must be [dr, dc] pairs of ints, "    \
                                    "got %s")                                             \
    /* the constructors' words (Board.grid's pattern: model/board.py) */                  \
    X(ML_M_JSON_WORDS_PATTERN_TYPE, ML_EINVAL,                                            \
      "pattern must be a name ('cross', 'diagonal', 'square', 'horizontal', 'vertical', "  \
      "'knight') or a sequence of (dr, dc) offsets, got %s")                              \
    X(ML_M_JSON_WORDS_OFFSETS_ENTRY, ML_EINVAL,                                           \
      "pattern offsets must be (dr, dc) pairs of ints, got %s")                           \
    X(ML_M_JSON_WORDS_ROW_TYPE, ML_EINVAL,                                                \
      "mixed pattern row %lld must be a list of %lld patterns, got a string")             \
    X(ML_M_JSON_TOO_LARGE, ML_ETOOLARGE,                                                  \
      "board too large: %lldx%lld = %lld tiles, at most %lld allowed")                    \
    X(ML_M_JSON_WRAP, ML_EINVAL, "wrap must be true or false, got %s")                    \
    X(ML_M_JSON_EFFECTS_TYPE, ML_EINVAL,                                                  \
      "effects must be a list of lists of cell indices, got %s")                          \
    X(ML_M_JSON_EFFECT_TYPE, ML_EINVAL, "effects[%llu] must be a list of cell indices, "  \
                                        "got %s")                                         \
    X(ML_M_JSON_EFFECT_ENTRY, ML_EINVAL, "effects[%llu] holds %s; cell indices must be "  \
                                         "ints")                                          \
    X(ML_M_JSON_GRAPH_TOO_LARGE, ML_ETOOLARGE,                                            \
      "graph board too large: %llu taps and %llu effect entries, at most %lld of each "   \
      "allowed")                                                                          \
    X(ML_M_JSON_N_CELLS, ML_ERANGE, "n_cells must be an int from 0 to %lld, got %s")      \
    X(ML_M_JSON_INT, ML_EINVAL, "%s must be %s, got %s")                                  \
    /* ---- the registry and plans (engines/registry.py, solver.py) */                    \
    X(ML_M_METHOD_UNKNOWN, ML_EINVAL, "unknown method %s: use one of %s")                 \
    X(ML_M_BACKEND_UNKNOWN, ML_EINVAL, "unknown backend %s: use one of %s")               \
    X(ML_M_METHOD_NOT_COVERED, ML_ENOTCOVERED,                                            \
      "method=%s does not cover this board: %s; use method='auto' or another of %s")      \
    X(ML_M_GIANT_NOT_COVERED, ML_ENOTCOVERED,                                             \
      "a board of more than %lld tiles is solved only by the algebraic engine, which "    \
      "does not cover this one (cross family: %s; symmetric 3 x 3 patterns: %s), or the " \
      "tensor engine, which does not either: %s (%s)")                                    \
    X(ML_M_CHASE_REFERENCE, ML_EINVAL,                                                    \
      "method=%s runs the native chase engine; backend='reference' factors the dense "    \
      "matrix (use method='dense' or 'auto' with it)")                                    \
    X(ML_M_CHASE_GRAPH, ML_EINVAL,                                                        \
      "method=%s needs a grid board (Board.grid); use method='dense' or 'auto' for "      \
      "graph boards")                                                                     \
    X(ML_M_ENGINE_NAME, ML_EINVAL,                                                        \
      "an engine name must be a new non-empty string other than 'auto' and the family "   \
      "names %s, got %s")                                                                 \
    X(ML_M_ENGINE_TAKEN, ML_EINVAL, "engine %s is registered already (unregister it "     \
                                    "first)")                                             \
    X(ML_M_ENGINE_QUESTIONS, ML_EINVAL, "unknown questions %s: use some of %s")           \
    X(ML_M_ENGINE_BACKENDS, ML_EINVAL, "backends must be some of %s, got %s")             \
    X(ML_M_ENGINE_UNKNOWN, ML_EINVAL, "no engine %s is registered: %s")                   \
    X(ML_M_NO_ANSWERER, ML_ENOTCOVERED, "no registered engine answers %s for this board") \
    X(ML_M_NOT_ALONE, ML_EUNAVAILABLE, "not available from the %s engine on its own")     \
    X(ML_M_DENSE_FALLBACK_LIMIT, ML_ETOOLARGE,                                            \
      "not available with method='%s' on a board this large (%llu x %llu tap matrix, "    \
      "more than %llu entries); use method='dense' on a smaller board")                   \
    /* ---- engine limits (engines/chase/limits.py, rowchase.py, native/_gf2, _zn) */     \
    X(ML_M_CHASE_RESIDUAL, ML_ETOOLARGE,                                                  \
      "this board is too large for its pattern: the chase leaves a residual system of "   \
      "%llu equations x %llu unknowns mod %d (%.0f MiB, about 2^%d operations to "        \
      "eliminate; at most %.0f MiB and 2^%d); the pattern forces too few taps (use a "    \
      "smaller board or a pattern that reaches the next row)")                            \
    X(ML_M_ROWCHASE_RECORDS, ML_ETOOLARGE,                                                \
      "this board is too large for the row chase: about %.0f MiB of elimination records " \
      "(%llu eliminations of rows of at least %llu symbols mod %d; at most %.0f MiB); "   \
      "use a smaller board or fewer holes")                                               \
    X(ML_M_ROWCHASE_LIVE, ML_ETOOLARGE,                                                   \
      "this board is too large for the row chase: at least %llu symbols are live at "     \
      "once (%llu rows of them: %.0f MiB, about 2^%d operations; at most %.0f MiB and "   \
      "2^%d); the pattern forces too few taps (use a smaller board or a pattern that "    \
      "reaches the next row)")                                                            \
    X(ML_M_ROWCHASE_BYTES, ML_ETOOLARGE,                                                  \
      "this board is too large for the row chase: its live symbols and elimination "      \
      "records would take more than %.0f MiB (use a smaller board or fewer holes)")       \
    X(ML_M_CHASE_OFFSETS, ML_ETOOLARGE,                                                   \
      "the chase takes at most %d distinct pattern offsets, this board uses %llu; use "   \
      "method='dense'")                                                                   \
    X(ML_M_GF2_TOO_LARGE, ML_ETOOLARGE,                                                   \
      "a %llux%llu tap matrix is too large for the dense GF(2) engine: [A | I] would "    \
      "take %.1f GiB (at most %.0f GiB)")                                                 \
    X(ML_M_GF2_RANK_TOO_LARGE, ML_ETOOLARGE,                                              \
      "a %llux%llu tap matrix is too large for the dense GF(2) rank: %.1f GiB packed (at " \
      "most %.0f GiB)")                                                                   \
    X(ML_M_ZN_TOO_LARGE, ML_ETOOLARGE,                                                    \
      "the tap matrix %llux%llu is too large for the dense native Z/n engine (at most "   \
      "%llu entries)")                                                                    \
    X(ML_M_KERNEL_TOO_LARGE, ML_ETOOLARGE,                                                \
      "the kernel has %llu generators of %llu taps: %llu bytes (%.1f GiB) as a dense "    \
      "array, more than the %llu GiB allowed; nullity, rank and kernel_size are "         \
      "available without it")                                                             \
    X(ML_M_KERNEL_BASIS_TOO_LARGE, ML_ETOOLARGE,                                          \
      "the kernel basis has %llu generators of %llu taps: %.2f GiB, more than the %.0f "  \
      "MiB allowed; nullity, kernel_size, solvable and solve do not need it")             \
    X(ML_M_COSET_TOO_LARGE, ML_ETOOLARGE,                                                 \
      "the coset has 2^62 or more elements: too many to enumerate")                       \
    /* ---- linear algebra (native/_gf2.pxi, native/_zn.pxi) */                           \
    X(ML_M_DET_SQUARE, ML_EUNAVAILABLE,                                                   \
      "det needs a square tap matrix, this one is %llux%llu")                             \
    X(ML_M_INVERSE_SQUARE, ML_EUNAVAILABLE,                                               \
      "inverse needs a square tap matrix, this one is %llux%llu")                         \
    X(ML_M_SINGULAR_GF2, ML_EUNAVAILABLE,                                                 \
      "the tap matrix is not invertible mod 2: det = 0 (rank %llu of %llu)")              \
    X(ML_M_SINGULAR, ML_EUNAVAILABLE,                                                     \
      "the tap matrix is not invertible mod %d: det = %u, which is not a unit "           \
      "(gcd(det, n) = %u)")                                                               \
    X(ML_M_NO_PSEUDO_INVERSE, ML_EUNAVAILABLE,                                            \
      "no generalised inverse (G with A G A = A) exists mod %d: mod %u the tap matrix "   \
      "has %llu Smith invariant(s) that are neither units nor zero; over Z/n a matrix "   \
      "has one only when every invariant is a unit or zero (always true for squarefree "  \
      "n)")                                                                               \
    /* ---- solving (solver.py) */                                                        \
    X(ML_M_UNSOLVABLE, ML_EUNSOLVABLE,                                                    \
      "no combination of taps takes this board to the target (the start and the target " \
      "differ by a pattern that taps cannot make)")                                       \
    X(ML_M_UNSOLVABLE_MANY, ML_EUNSOLVABLE, "%llu of %llu boards are unsolvable: "        \
                                            "indices %s")                                 \
    X(ML_M_UNSOLVABLE_PACKED, ML_EUNSOLVABLE,                                             \
      "this board cannot reach the target: t - s is not in the image of the tap matrix")  \
    X(ML_M_PACKED_NEEDS_GF2_GRID, ML_EINVAL,                                              \
      "solve_packed needs a grid board with n = 2 (bit-packed states), this one has "     \
      "n = %d%s")                                                                         \
    X(ML_M_PACKED_GIANT, ML_ETOOLARGE,                                                    \
      "solve_packed on a board of more than %lld tiles needs an engine with a packed "    \
      "path (algebraic: the cross family, not tori, and left-right symmetric 3 x 3 "      \
      "patterns such as diagonal; tensor: square, horizontal, vertical and other "        \
      "product patterns); method=%s would unpack the states (rank, nullity, "             \
      "kernel_size and det are available)")                                               \
    X(ML_M_BUDGET_SECONDS, ML_ERANGE, "budget seconds must be >= 0, got %s")              \
    X(ML_M_BUDGET_KIND, ML_EINVAL,                                                        \
      "budget kind must be ML_BUDGET_DEFAULT, ML_BUDGET_STEPS or ML_BUDGET_SECONDS, "     \
      "got %d")                                                                           \
    X(ML_M_CERT_NOT_SEARCHED, ML_EUNAVAILABLE,                                            \
      "no certificate: this solution is not proved minimal (solve(minimal=False) does "   \
      "not search for the fewest taps; use solve(minimal=True))")                         \
    X(ML_M_CERT_BUDGET, ML_EUNAVAILABLE,                                                  \
      "no certificate: this solution is not proved minimal (the search's budget ran out " \
      "after %llu of %s coset elements; raise budget)")                                   \
    X(ML_M_CERT_KERNEL_TOO_LARGE, ML_EUNAVAILABLE,                                        \
      "no certificate: the kernel's generators are more than the %llu GiB a certificate " \
      "may hold as a dense array (the solution is proved minimal all the same)")          \
    X(ML_M_CERT_NO_PROOF, ML_EUNAVAILABLE,                                                \
      "no certificate: the search proved this solution minimal but kept no proof")        \
    X(ML_M_SEARCH_EXPORT, ML_EINVAL,                                                      \
      "not a search exported by libmodlights %s (format %u, version %u)")                 \
    X(ML_M_SEARCH_TASK, ML_ERANGE, "task %llu out of range: the search has %llu tasks")   \
    /* ---- puzzles (play/puzzles.py, play/prng.py) */                                    \
    X(ML_M_PUZZLE_GRID, ML_EINVAL,                                                        \
      "puzzles are grid boards (Board.grid); graph boards have no puzzle code")           \
    X(ML_M_DIFFICULTY, ML_EINVAL,                                                         \
      "difficulty must be one of 'easy', 'medium', 'hard', 'expert', got %s")             \
    X(ML_M_GENERATE_SIZE, ML_ETOOLARGE,                                                   \
      "generate makes boards of up to %d tiles with sides up to %d, got %lldx%lld")       \
    X(ML_M_GENERATE_NO_TILE_LEFT, ML_EIMPOSSIBLE,                                         \
      "%lld locked tiles and %lld holes leave no tile to tap on a %lldx%lld board")       \
    X(ML_M_GENERATE_NO_TAPPABLE, ML_EIMPOSSIBLE,                                          \
      "no tappable tile is left on the %lldx%lld board with %d states")                   \
    X(ML_M_UNIQUE_NULLITY, ML_EIMPOSSIBLE,                                                \
      "unique=True is impossible: the %lldx%lld board with %d states has |ker A| = %s "   \
      "(nullity %llu) and each locked tile lowers the nullity by at most 1, so it needs " \
      "at least %llu locked tiles, not %lld; or pass unique=False")                       \
    X(ML_M_UNIQUE_NONE_ALLOWED, ML_EIMPOSSIBLE,                                           \
      "unique=True is impossible: the %lldx%lld board with %d states has |ker A| = %s "   \
      "(several tap combinations change nothing, so solutions are never unique) and %s "  \
      "to break that; allow some with locked=k or holes=k, or pass unique=False")         \
    X(ML_M_UNIQUE_PLACEMENTS, ML_EIMPOSSIBLE,                                             \
      "unique=True: none of %d placements of %lld locked tiles and %lld holes on the "    \
      "%lldx%lld board with %d states gives a trivial kernel (the best left |ker A| = "   \
      "%s); allow more locked tiles, or pass unique=False")                               \
    X(ML_M_UNIQUE_AUTO_LOCKS, ML_EIMPOSSIBLE,                                             \
      "%s; locking %llu to %llu tiles did not help either")                               \
    X(ML_M_GENERATE_CHANGES_NOTHING, ML_EIMPOSSIBLE,                                      \
      "no tap changes any tile on this %lldx%lld board with %d states (its pattern is "   \
      "empty, or its offsets add up to multiples of %d), so no start can need a tap; use " \
      "a pattern that changes some tile")                                                 \
    X(ML_M_GENERATE_NO_START, ML_EIMPOSSIBLE,                                             \
      "could not make a start state that needs any tap on this board (every tap changes " \
      "nothing)")                                                                         \
    X(ML_M_SAMPLE, ML_ERANGE, "cannot sample %llu of %llu items")                         \
    X(ML_M_DATE_FORMAT, ML_EINVAL, "date must be an ISO date 'YYYY-MM-DD', got %s")       \
    X(ML_M_DATE_BAD, ML_ERANGE, "bad date %s: %s")                                        \
    /* ---- encoding puzzle codes (play/puzzles.py encode) */                             \
    X(ML_M_CODE_GRID_ONLY, ML_EINVAL, "only grid boards have puzzle codes")               \
    X(ML_M_CODE_SIDE, ML_ETOOLARGE, "a puzzle code holds boards up to %dx%d, got "        \
                                    "%lldx%lld")                                          \
    X(ML_M_CODE_ALL_HOLES, ML_EINVAL,                                                     \
      "a board whose every tile is a hole has no puzzle code (a code needs at least one " \
      "tile)")                                                                            \
    X(ML_M_CODE_OFFSET_COUNT, ML_ETOOLARGE,                                               \
      "a puzzle code holds patterns of up to 255 offsets, got %llu")                      \
    X(ML_M_CODE_OFFSET_RANGE, ML_ERANGE,                                                  \
      "a puzzle code holds offsets in -128..127, got (%lld, %lld)")                       \
    X(ML_M_CODE_PALETTE, ML_ETOOLARGE,                                                    \
      "a puzzle code holds mixed boards of up to 255 distinct patterns, got %llu")        \
    /* ---- decoding puzzle codes (play/puzzles.py decode): all ML_ECODE */               \
    X(ML_M_CODE_EMPTY, ML_ECODE, "empty puzzle code")                                     \
    X(ML_M_CODE_TOO_LONG, ML_ECODE, "puzzle code too long: %llu characters, at most %d")  \
    X(ML_M_CODE_CHARACTER, ML_ECODE,                                                      \
      "puzzle code has a character %s that is not base64url (A-Z a-z 0-9 - _)")           \
    X(ML_M_CODE_LENGTH, ML_ECODE,                                                         \
      "puzzle code has an impossible length (truncated or garbled)")                      \
    X(ML_M_CODE_BASE64, ML_ECODE, "puzzle code is not valid base64url")                   \
    X(ML_M_CODE_TOO_SHORT, ML_ECODE,                                                      \
      "puzzle code too short (%llu bytes): truncated or not a code")                      \
    X(ML_M_CODE_CHECKSUM, ML_ECODE,                                                       \
      "puzzle code checksum mismatch: the code is mistyped, truncated or corrupted")      \
    X(ML_M_CODE_VERSION, ML_ECODE,                                                        \
      "unsupported puzzle code version %u (this modlights reads version %d)")             \
    X(ML_M_CODE_FLAGS, ML_ECODE, "puzzle code has unknown flags 0x%02x")                  \
    X(ML_M_CODE_KIND, ML_ECODE, "puzzle code has an unknown pattern kind 3")              \
    X(ML_M_CODE_SIDES, ML_ECODE, "puzzle code declares a %ux%u board (sides are 1..255)") \
    X(ML_M_CODE_STATES, ML_ECODE, "puzzle code declares %u states (2..255 allowed)")      \
    X(ML_M_CODE_EMPTY_PALETTE, ML_ECODE,                                                  \
      "puzzle code declares a mixed board with an empty palette")                         \
    X(ML_M_CODE_PALETTE_KIND, ML_ECODE,                                                   \
      "puzzle code palette entry %u has unknown kind %u")                                 \
    X(ML_M_CODE_PATTERN_ID, ML_ECODE,                                                     \
      "puzzle code names pattern id %u; known ids are 0..%d")                             \
    X(ML_M_CODE_TRUNCATED_AT, ML_ECODE, "puzzle code is truncated (ends before the %s)")  \
    X(ML_M_CODE_TRUNCATED_OFFSETS, ML_ECODE,                                              \
      "puzzle code is truncated (declares %u offsets in the %s)")                         \
    X(ML_M_CODE_TRUNCATED_BOARD, ML_ECODE,                                                \
      "puzzle code is truncated: a %ux%u board needs more data than the %llu bytes left") \
    X(ML_M_CODE_LENGTH_STATES, ML_ECODE,                                                  \
      "puzzle code length does not match its %ux%u board with %u states (truncated or "   \
      "padded)")                                                                          \
    X(ML_M_CODE_TILES_END, ML_ECODE, "puzzle code is truncated (the tile data ends "      \
                                     "early)")                                            \
    X(ML_M_CODE_PALETTE_ENTRY, ML_ECODE,                                                  \
      "puzzle code uses palette entry %llu, the palette has %u")                          \
    X(ML_M_CODE_NO_LOCKS, ML_ECODE, "puzzle code declares locked tiles but marks none")   \
    X(ML_M_CODE_NO_HOLES, ML_ECODE, "puzzle code declares holes but marks none")          \
    X(ML_M_CODE_ALL_HOLE, ML_ECODE, "puzzle code makes every tile a hole")                \
    X(ML_M_CODE_LOCKED_HOLE, ML_ECODE,                                                    \
      "puzzle code marks tile (%lld, %lld) both locked and a hole")                       \
    X(ML_M_CODE_LENGTH_BOARD, ML_ECODE,                                                   \
      "puzzle code length does not match its board (truncated or padded)")                \
    X(ML_M_CODE_PADDING, ML_ECODE, "puzzle code has non-zero padding bits (garbled)")     \
    X(ML_M_CODE_TILE_VALUE, ML_ECODE,                                                     \
      "puzzle code has a tile value %llu, out of range for %u states")                    \
    X(ML_M_CODE_NOT_CANONICAL, ML_ECODE,                                                  \
      "puzzle code is not canonical (a mistyped character, or not written by "            \
      "modlights): a valid code re-encodes to itself")                                    \
    /* ---- puzzle JSON (play/puzzles.py puzzle_from_dict) */                             \
    X(ML_M_PUZZLE_NEEDS, ML_EINVAL, "puzzle needs 'board' and 'start', or 'code'")        \
    X(ML_M_PUZZLE_CODE_TYPE, ML_EINVAL, "code must be a string, got %s")                  \
    X(ML_M_PUZZLE_NO_BOARD, ML_EINVAL,                                                    \
      "puzzle has 'start' but no 'board'; give both, or 'code' alone")                    \
    X(ML_M_PUZZLE_NO_START, ML_EINVAL,                                                    \
      "puzzle has 'board' but no 'start'; give both, or 'code' alone")                    \
    X(ML_M_PUZZLE_GRAPH, ML_EINVAL,                                                       \
      "board: puzzles are grid boards; a graph board has no puzzle")                      \
    X(ML_M_PUZZLE_DISAGREE, ML_EINVAL,                                                    \
      "code and board/start describe different puzzles; give one or make them agree")     \
    X(ML_M_PUZZLE_STARS, ML_EINVAL, "stars must be {\"3\": int, \"2\": int, \"1\": int}") \
    X(ML_M_PUZZLE_MIN_TAPS, ML_EINVAL, "min_taps must be an int >= 0, got %s")            \
    X(ML_M_PUZZLE_PROVEN, ML_EINVAL, "proven must be true or false, got %s")              \
    X(ML_M_PUZZLE_DIFFICULTY, ML_EINVAL,                                                  \
      "difficulty must be one of easy, medium, hard, expert, got %s")                     \
    X(ML_M_PUZZLE_START_SHAPE, ML_ESHAPE,                                                 \
      "start must be %lld lists of %lld ints (the board's shape)")                        \
    X(ML_M_PUZZLE_START_VALUE, ML_ERANGE, "start values must be ints from 0 to %d, got %s") \
    /* ---- certificates (ml_verify_json; the checker's own messages: csrc/verify) */     \
    X(ML_M_CERT_FORMAT, ML_EINVAL, "%s")                                                  \
    X(ML_M_CERT_INVALID, ML_EINVAL, "%s")                                                 \
    /* ---- the plan's reasons (status ML_OK: not errors) */                              \
    X(ML_R_CHEAPEST, ML_OK, "the cheapest engine that covers the board (%.4g s estimated)") \
    X(ML_R_BY_NAME, ML_OK, "asked for by name; it covers the board")                      \
    X(ML_R_ONLY, ML_OK, "the only engine that covers the board")                          \
    X(ML_R_COSTS_MORE, ML_OK, "costs more (%.4g s against %.4g s for %s, estimated)")     \
    X(ML_R_NOT_ASKED, ML_OK, "not asked for (method=%s)")                                 \
    X(ML_R_VARIANT_ONLY, ML_OK, "a variant, chosen only by its name")                     \
    X(ML_R_BACKEND, ML_OK, "backend must be %s, not %s")                                  \
    X(ML_R_WITH_VARIANT, ML_OK, "%s; variant %s: %s")                                     \
    X(ML_R_DENSE_GF2_ONLY, ML_OK, "GF(2) only (n = 2); this board has n = %d (dense-zn)") \
    X(ML_R_DENSE_ZN_ONLY, ML_OK, "n >= 3 only; n = 2 has dense-gf2")                      \
    X(ML_R_DENSE_GIANT, ML_OK,                                                            \
      "a board of more than %lld tiles has no dense tap matrix (only the structured "     \
      "engines take it)")                                                                 \
    X(ML_R_CHASE_GRID, ML_OK,                                                             \
      "the chase works on grid boards only (Board.grid); graph boards go dense")          \
    X(ML_R_CHASE_GIANT, ML_OK, "a board of more than %lld tiles needs a byte a tile")     \
    X(ML_R_CHASE_OFFSETS, ML_OK, "its patterns use more than %d distinct offsets")        \
    X(ML_R_PREFIX_NEEDS, ML_OK,                                                           \
      "the prefix chase needs locked tiles or holes (a tall residual system whose "       \
      "prefix may suffice)")                                                              \
    X(ML_R_ROWSOLVE_GRID, ML_OK, "the chase works on grid boards only")                   \
    X(ML_R_ROWSOLVE_NEEDS, ML_OK,                                                         \
      "the row-solve chase needs one pattern, no wrap, locks or holes, and a pattern "    \
      "whose last row of taps is a pair (D, -a), (D, +a) with coefficients that are "     \
      "units mod n, on a width (or height) that is a multiple of 2a")                     \
    X(ML_R_VARIANT_ROWSOLVE, ML_OK,                                                       \
      "its pattern ends in a pair of unit taps: the row-solve chase has the fewest "      \
      "symbols")                                                                          \
    X(ML_R_VARIANT_FORCED, ML_OK, "forced")                                               \
    X(ML_R_VARIANT_ROW, ML_OK, "more than %d symbols a column (holes or locks)")          \
    X(ML_R_VARIANT_PREFIX_ASKED, ML_OK,                                                   \
      "asked for; no prefix of the residual system leaves a trivial kernel, so the "      \
      "whole system is eliminated")                                                       \
    X(ML_R_VARIANT_PREFIX, ML_OK, "a prefix of its tall residual system leaves no "       \
                                  "kernel")                                               \
    X(ML_R_VARIANT_TALL, ML_OK,                                                           \
      "a tall residual system no prefix of which leaves a trivial kernel")                \
    X(ML_R_VARIANT_LIGHT, ML_OK, "the residual system of the light chase, eliminated "    \
                                 "whole")                                                 \
    X(ML_R_GRID_ONLY, ML_OK, "grid boards only (Board.grid)")                             \
    X(ML_R_CROSS_NOT_TORI, ML_OK, "tori are algebraic-torus's")                           \
    X(ML_R_TORUS_ONLY, ML_OK,                                                             \
      "tori only (wrap=True); grids without wrap are algebraic-cross's")                  \
    X(ML_R_SYM_PREFIX, ML_OK, "symmetric 3 x 3 patterns: %s")                             \
    X(ML_R_NEEDS_GRID, ML_OK, "it needs a grid board (Board.grid)")                       \
    X(ML_R_PRIME_N, ML_OK, "n must be a prime (2..%d), this board has n = %d")            \
    X(ML_R_ONE_PATTERN, ML_OK, "it needs one pattern on every tile (this board is mixed)") \
    X(ML_R_NO_LOCKS_HOLES, ML_OK, "it needs a board without locked tiles or holes")       \
    X(ML_R_ROW_OFFSETS, ML_OK,                                                            \
      "the pattern may use only the offsets (0,0), (0,+-1), (+-1,0); it uses (%lld, "     \
      "%lld)")                                                                            \
    X(ML_R_CROSS_UNIT, ML_OK,                                                             \
      "the chase needs the offset (-1, 0) (or, on the transposed board, (0, -1)) with a " \
      "count that is a unit mod n%s")                                                     \
    X(ML_R_TORUS2_ONLY, ML_OK, "tori only (wrap=True)")                                   \
    X(ML_R_TORUS2_LEAD, ML_OK,                                                            \
      "no orientation of this torus (transposed or not, sheared (r + a c, c) with |a| "  \
      "<= %d where the height divides a times the width, flipped or not) gives the "     \
      "pattern an extreme row of a single offset with a unit count and a span of at "     \
      "most %d rows, less than the height, whose system over GF(p)[s] / (s^w - 1) takes " \
      "at most 2^%d steps ((span^3 / 3 + 2 span) w^2, over GF(2) / 64)")                 \
    X(ML_R_SYM_TORI, ML_OK, "it does not take tori (wrap=True)")                          \
    X(ML_R_SYM_BOX, ML_OK,                                                                \
      "the pattern must lie in the 3 x 3 box around the tap; it uses (%lld, %lld)")       \
    X(ML_R_SYM_ORIENTATION, ML_OK,                                                        \
      "the pattern must be left-right (or, transposed, up-down) symmetric with an "       \
      "invertible coefficient a I + b P of the next row (a, b: the counts of (-1, 0) "    \
      "and (-1, +1); P the path adjacency of a row), and it is not in either "            \
      "orientation for this board's size")                                                \
    X(ML_R_LIFTED_PRIME, ML_OK,                                                           \
      "n must be composite (n = %d is prime: the algebraic engine takes it)")             \
    /* no longer given (lifted takes tori): kept for the codes after it */                 \
    X(ML_R_LIFTED_TORI, ML_OK, "it does not take tori (wrap=True); the chase does")       \
    X(ML_R_LIFTED_TILES, ML_OK,                                                           \
      "it needs at most %lld tiles (byte states), this board has %lld")                   \
    X(ML_R_OVER_FACTOR, ML_OK, "over GF(%d) (a factor of n = %d): %s")                    \
    X(ML_R_TENSOR_FACTORS, ML_OK,                                                         \
      "the pattern's offset counts must factor as cnt(dr, dc) = a(dr) b(dc) (square, "    \
      "horizontal, vertical, products of a row and a column offset set)")                 \
    X(ML_R_TENSOR_ZERO, ML_OK,                                                            \
      "along one direction the pattern's counts are all multiples of n = %d or its "      \
      "offsets leave the board (the tap matrix is zero)")                                 \
    X(ML_R_TENSOR_NO_UNIT_END, ML_OK,                                                     \
      "neither end of the band %s has a count that is a unit mod n = %d")                 \
    X(ML_R_TENSOR_SYMBOLS, ML_OK,                                                         \
      "the band %lld..%lld needs %lld symbols along a side of %lld, more than the %d "    \
      "allowed")                                                                          \
    X(ML_R_TENSOR_SINGULAR, ML_OK,                                                        \
      "the 1-D factor (offsets %s, side %lld) is singular mod n = %d (a composite n "     \
      "with two or more prime factors needs it invertible; its prime-power parts need "   \
      "not)")                                                                             \
    X(ML_R_OVER_RING_FACTOR, ML_OK, "over Z/%d (a factor of n = %d): %s")                 \
    X(ML_R_ENGINE_REFUSED, ML_OK, "%s")                                                   \
    /* ---- appended after 0.1.0's first table (ids are positions: append only) */        \
    X(ML_M_NOT_UNIFORM, ML_EINVAL,                                                        \
      "%s needs a grid board with one pattern on every tile; this one is mixed (read "    \
      "each tile's pattern with ml_board_tile_pattern)")                                  \
    X(ML_M_FACTORED_RANGE, ML_ERANGE,                                                     \
      "the count is about 2^%.1f, more than 64 bits hold (read it with "                  \
      "ml_factored_decimal or ml_factored_log2)")                                         \
    X(ML_M_FACTORED_INVALID, ML_EINVAL,                                                   \
      "%s: not a factored count (count %d: 0 to %d distinct primes from 2 to 255, "       \
      "each once)")                                                                       \
    X(ML_M_FACTORED_DIGITS, ML_ETOOLARGE,                                                 \
      "the count has about %.0f decimal digits, more than the %lld allowed")              \
    X(ML_M_ENGINE_COST, ML_EINVAL,                                                        \
      "the engine %s estimated a cost of %s s for this board; a cost must be a finite "   \
      "number of seconds >= 0")                                                           \
    X(ML_M_SEARCH_KIND, ML_EINVAL, "%s does not apply to a %s search (use %s)")           \
    X(ML_M_SEARCH_NO_TAPS, ML_EUNAVAILABLE,                                               \
      "no taps: %llu task(s) were merged without them (ml_search_merge_rows with taps "   \
      "NULL); ask for the lengths only (taps NULL)")                                      \
    /* the constructors' words (Board.grid's locked / holes positions: model/board.py) */ \
    X(ML_M_JSON_WORDS_POSITION_ENTRY, ML_EINVAL,                                          \
      "%s must be a (row, col) pair of ints, got %s")                                     \
    X(ML_R_SYM_ODD_ORIENTATION, ML_OK,                                                    \
      "the pattern must be left-right (or, transposed, up-down) symmetric with no tap "   \
      "(-1, 0) mod n and a count of (-1, +1) that is a unit mod n (the next row's "       \
      "coefficient b P singular on an odd width w), on an odd width w with (w + 1) / 2 "  \
      "not a multiple of n or a count of (0, 0) that is a unit mod n, and it is not in "  \
      "either orientation for this board's size")

/* The message ids: ML_M_... for errors, ML_R_... for the plan's reasons. */
#define ML_X_MESSAGE_ID(id, status, text) id,
typedef enum ml_msg { ML_MESSAGES(ML_X_MESSAGE_ID) ML_MSG_COUNT } ml_msg;
#undef ML_X_MESSAGE_ID

/* The printf template of a message id ("" for an unknown id; static storage). */
ML_API const char *ml_msg_template(int id);
/* The status a message id is raised with (ML_OK for the reasons, -1 for unknown ids). */
ML_API int ml_msg_status(int id);
/* The id's name as text ("ML_M_UNSOLVABLE"; "" for unknown ids). */
ML_API const char *ml_msg_name(int id);

/* ================================================================== contexts
 * A context is what one thread of work carries: the last error (status, message id,
 * message), the stop flag, the progress callback and the thread budget. Use a context
 * from one thread at a time; give each thread its own (or pass NULL everywhere: each
 * thread then has a default context of its own). */
typedef struct ml_ctx ml_ctx;

/* A new context: no error, no stop requested, no progress callback, every CPU. */
ML_API int ml_ctx_new(ml_ctx **out);
ML_API void ml_ctx_free(ml_ctx *ctx);

/* The status of the last failing call on ctx (ML_OK after a success: every call
 * clears the error slot first). */
ML_API int ml_errcode(const ml_ctx *ctx);
/* The message id (ml_msg) of that failure (ML_M_NONE after a success). */
ML_API int ml_errmsg_id(const ml_ctx *ctx);
/* The message of that failure ("" after a success), valid until the next call on ctx. */
ML_API const char *ml_errmsg(const ml_ctx *ctx);

/* Stopping long work. ml_ctx_stop asks the call running on ctx (from another thread,
 * or a signal handler: it only stores an atomic flag) to stop: it returns
 * ML_EINTERRUPTED within about 20 ms and leaves every handle as it was before the
 * call. A stop requested while no call runs stops the next long call at its start;
 * the flag is cleared when a call returns ML_EINTERRUPTED. ml_stop_all does the same
 * for every context of the process (the Ctrl-C of a command-line program). */
ML_API void ml_ctx_stop(ml_ctx *ctx);
ML_API void ml_stop_all(void);

/* The phases a progress callback is told about. */
typedef enum ml_phase {
    ML_PHASE_FACTOR = 0,   /* factoring the tap matrix (done/total: 0/0, unknown) */
    ML_PHASE_SEARCH = 1,   /* the minimal search (done/total: coset elements) */
    ML_PHASE_DESCENT = 2,  /* the greedy descent after an unfinished search */
    ML_PHASE_BATCH = 3,    /* a batch (done/total: boards) */
    ML_PHASE_GENERATE = 4  /* generate (done/total: samples) */
} ml_phase;

/* Called on the thread that made the call, between units of work, at most every
 * interval_ms milliseconds (0: the default, 20 ms); never from the library's worker
 * threads, never with a lock held. Returning nonzero stops the work
 * (ML_EINTERRUPTED). The Python binding's callback is where Ctrl-C is seen. */
typedef int (*ml_progress_fn)(void *user, int phase, uint64_t done, uint64_t total);
ML_API void ml_ctx_set_progress(ml_ctx *ctx, ml_progress_fn fn, void *user,
                                unsigned interval_ms);

/* Worker threads the library may use for one call made on ctx: 0 (default) every CPU,
 * 1 the calling thread only. Answers never depend on it (only speed does). */
ML_API int ml_ctx_set_threads(ml_ctx *ctx, int threads);

/* ================================================================== big counts
 * |ker A| can exceed 64 bits (n^nullity, nullity up to millions), so it is returned
 * factored: |ker A| = prod prime[i]^exp[i] over count <= ML_MAX_PRIMES distinct
 * primes of n (count 0: |ker A| = 1). Bindings build their big integers from it
 * (Python int, JavaScript BigInt). */
typedef struct ml_factored {
    int count;
    uint32_t prime[ML_MAX_PRIMES];
    uint64_t exp[ML_MAX_PRIMES];
} ml_factored;

/* The value when it fits in 64 bits (ML_ERANGE otherwise). */
ML_API int ml_factored_u64(ml_ctx *ctx, const ml_factored *f, uint64_t *out);
/* log2 of the value (exact for powers of two; 0 for 1). */
ML_API double ml_factored_log2(const ml_factored *f);
/* The value in decimal (snprintf convention; ML_ETOOLARGE past 10^8 digits). */
ML_API int ml_factored_decimal(ml_ctx *ctx, const ml_factored *f, char *buf, size_t cap,
                               size_t *len);

/* ================================================================== patterns */
typedef enum ml_pattern_id {
    ML_PATTERN_CROSS = 0,      /* centre + 4 neighbours */
    ML_PATTERN_DIAGONAL = 1,   /* centre + 4 diagonal neighbours */
    ML_PATTERN_SQUARE = 2,     /* centre + 8 neighbours */
    ML_PATTERN_HORIZONTAL = 3, /* centre, left, right */
    ML_PATTERN_VERTICAL = 4,   /* centre, up, down */
    ML_PATTERN_KNIGHT = 5,     /* centre + the 8 knight moves */
    ML_PATTERN_COUNT = 6
} ml_pattern_id;

/* The id of a pattern name (case-insensitive, blanks around it ignored). */
ML_API int ml_pattern_lookup(ml_ctx *ctx, const char *name, int *id);
/* The name of a pattern id ("cross", ...; NULL for others; static storage). */
ML_API const char *ml_pattern_name(int id);
/* The offsets of a named pattern, the tapped tile (0, 0) first: writes up to cap of
 * them and returns how many it has (0 for an unknown id). */
ML_API size_t ml_pattern_offsets(int id, int32_t *dr, int32_t *dc, size_t cap);

/* ================================================================== boards
 * A board is immutable once built: any number of threads may read it at once. It is
 * reference counted: every handle that needs it (solver, puzzle, result) keeps a
 * reference, so the caller may free its own as soon as it has made them. */
typedef struct ml_board ml_board;

typedef enum ml_kind { ML_BOARD_GRID = 1, ML_BOARD_GRAPH = 2 } ml_kind;

/* -- grid boards are described by a builder, then built (the builder is reusable) */
typedef struct ml_grid ml_grid;

/* A rows x cols description with n = states, the cross pattern, no locks, holes or
 * wrap. rows, cols: 1..ML_MAX_SIDE; states: 2..255 (ML_ERANGE otherwise). */
ML_API int ml_grid_new(ml_ctx *ctx, int64_t rows, int64_t cols, int states, ml_grid **out);
ML_API void ml_grid_free(ml_grid *g);
/* One named pattern on every tile. */
ML_API int ml_grid_set_pattern(ml_ctx *ctx, ml_grid *g, int pattern_id);
ML_API int ml_grid_set_pattern_name(ml_ctx *ctx, ml_grid *g, const char *name);
/* One pattern given as offsets, used exactly as given (repeats add up; leave out
 * (0, 0) and the tapped tile does not change). count <= ML_MAX_OFFSETS, |dr|, |dc| <=
 * ML_MAX_REACH. */
ML_API int ml_grid_set_offsets(ml_ctx *ctx, ml_grid *g, size_t count, const int64_t *dr,
                               const int64_t *dc);
/* Mixed boards: patterns go into a palette (each call returns its index), then every
 * tile names its entry (index: rows * cols entries, row-major). */
ML_API int ml_grid_palette_add(ml_ctx *ctx, ml_grid *g, int pattern_id, uint32_t *index);
ML_API int ml_grid_palette_add_offsets(ml_ctx *ctx, ml_grid *g, size_t count,
                                       const int64_t *dr, const int64_t *dc,
                                       uint32_t *index);
ML_API int ml_grid_set_mixed(ml_ctx *ctx, ml_grid *g, const uint32_t *index);
/* A torus (offsets wrap around the edges; where two land on one tile it advances twice). */
ML_API int ml_grid_set_wrap(ml_ctx *ctx, ml_grid *g, int wrap);
/* Locked tiles (changed by taps, never tapped) and holes (not part of the board), one
 * at a time ("locked (r, c) is off the board: ..." for a position off the board) or as
 * rows * cols masks (nonzero: marked; replaces earlier marks). A tile both locked and
 * a hole is refused by ml_grid_build. */
ML_API int ml_grid_lock(ml_ctx *ctx, ml_grid *g, int64_t r, int64_t c);
ML_API int ml_grid_hole(ml_ctx *ctx, ml_grid *g, int64_t r, int64_t c);
ML_API int ml_grid_set_locked(ml_ctx *ctx, ml_grid *g, const uint8_t *mask);
ML_API int ml_grid_set_holes(ml_ctx *ctx, ml_grid *g, const uint8_t *mask);
/* As ml_grid_set_locked / _holes without a copy: mask (rows * cols bytes, not NULL) is
 * read in place by the builder and every board built from it, and must not change until
 * release(arg) is called: exactly once, by the call that drops the last of them
 * (ml_grid_free, ml_board_free, a later mask; on any thread), or before this function
 * returns when it keeps a copy instead (some byte other than 0 or 1). release may be
 * NULL. On an error nothing is kept and release is not called. O(tiles) to count. */
ML_API int ml_grid_share_locked(ml_ctx *ctx, ml_grid *g, const uint8_t *mask,
                                void (*release)(void *arg), void *arg);
ML_API int ml_grid_share_holes(ml_ctx *ctx, ml_grid *g, const uint8_t *mask,
                               void (*release)(void *arg), void *arg);
/* The board described. Past ML_MAX_TILES tiles only uniform grids (one pattern, no
 * locks or holes) are allowed; they are described by shape and pattern alone (giant
 * boards: only the structured engines take them). O(tiles) with locks or holes, O(1)
 * without. */
ML_API int ml_grid_build(ml_ctx *ctx, const ml_grid *g, ml_board **out);

/* A uniform grid in one call: pattern a name (NULL: "cross"), no locks, holes or wrap. */
ML_API int ml_board_grid(ml_ctx *ctx, int64_t rows, int64_t cols, int states,
                         const char *pattern, ml_board **out);

/* A graph board: tap j advances cells[indptr[j] .. indptr[j + 1]) by one each (a cell
 * listed k times advances k times). n_cells < 0: one more than the largest index.
 * At most ML_MAX_TILES cells and taps. */
ML_API int ml_board_from_effects(ml_ctx *ctx, int states, int64_t n_cells, size_t n_taps,
                                 const int64_t *indptr, const int64_t *cells,
                                 ml_board **out);
/* A graph board whose tap matrix is a (n_cells x n_taps, row i at a + i * lda),
 * entries reduced mod n. At most ML_MAX_DENSE entries. */
ML_API int ml_board_from_matrix(ml_ctx *ctx, int states, size_t n_cells, size_t n_taps,
                                const uint8_t *a, size_t lda, ml_board **out);
/* As ml_board_from_matrix with lda = n_taps, reading a in place when every entry is
 * below states: a is then never written and must stay unchanged until release(arg) is
 * called, when the board's last reference goes (ml_board_free; on any thread). When
 * some entry is not, the board keeps a reduced copy and release(arg) is called before
 * this function returns. release may be NULL. On an error nothing is kept and release
 * is not called. O(entries) to check. */
ML_API int ml_board_share_matrix(ml_ctx *ctx, int states, size_t n_cells, size_t n_taps,
                                 const uint8_t *a, void (*release)(void *arg), void *arg,
                                 ml_board **out);
/* The board of a JSON object as Board.to_dict writes it (Python's Board.from_dict
 * rules and messages); max_tiles <= 0: ML_MAX_TILES. */
ML_API int ml_board_from_json(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                              ml_board **out);
/* The board as JSON, exactly Python's json.dumps(board.to_dict()) with separators
 * (",", ":") (snprintf convention). */
ML_API int ml_board_to_json(ml_ctx *ctx, const ml_board *b, char *buf, size_t cap,
                            size_t *len);

/* Another reference to b (returns b); each reference is released by ml_board_free. */
ML_API ml_board *ml_board_retain(ml_board *b);
ML_API void ml_board_free(ml_board *b);

/* -- properties (O(1), never fail) */
ML_API int ml_board_kind(const ml_board *b);    /* ml_kind */
ML_API int ml_board_states(const ml_board *b);
/* (rows, cols) for grids, (n_cells, 1) for graph boards. */
ML_API int64_t ml_board_rows(const ml_board *b);
ML_API int64_t ml_board_cols(const ml_board *b);
ML_API uint64_t ml_board_n_cells(const ml_board *b);   /* rows of A */
ML_API uint64_t ml_board_n_taps(const ml_board *b);    /* columns of A */
/* Bytes of a state or target (rows * cols, or n_cells) and of tap counts (rows * cols,
 * or n_taps). */
ML_API uint64_t ml_board_size(const ml_board *b);
ML_API uint64_t ml_board_taps_size(const ml_board *b);
ML_API int ml_board_wrap(const ml_board *b);
ML_API int ml_board_is_mixed(const ml_board *b);
ML_API int ml_board_is_giant(const ml_board *b);       /* past ML_MAX_TILES tiles */
ML_API int ml_board_any_locked(const ml_board *b);
ML_API int ml_board_any_holes(const ml_board *b);
/* Equal boards: same kind, n and tap matrix (as Python's Board.__eq__). */
ML_API int ml_board_equal(const ml_board *a, const ml_board *b);
/* A hash consistent with ml_board_equal. */
ML_API uint64_t ml_board_hash(const ml_board *b);

/* -- reading the geometry */
/* The offsets of a uniform grid's pattern (count written; up to cap offsets);
 * ML_EINVAL for mixed and graph boards. */
ML_API int ml_board_pattern(ml_ctx *ctx, const ml_board *b, size_t *count, int32_t *dr,
                            int32_t *dc, size_t cap);
/* The offsets of the tile (r, c) of a grid. */
ML_API int ml_board_tile_pattern(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c,
                                 size_t *count, int32_t *dr, int32_t *dc, size_t cap);
/* rows * cols masks (1: locked / a hole / an active tile / a tappable tile). */
ML_API int ml_board_locked_mask(ml_ctx *ctx, const ml_board *b, uint8_t *out);
ML_API int ml_board_holes_mask(ml_ctx *ctx, const ml_board *b, uint8_t *out);
/* Positions and indices. On a graph board a position is (index, 0). */
ML_API int ml_board_tap_index(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c,
                              uint64_t *j);
ML_API int ml_board_cell_index(ml_ctx *ctx, const ml_board *b, int64_t r, int64_t c,
                               uint64_t *i);
ML_API int ml_board_tap_position(ml_ctx *ctx, const ml_board *b, uint64_t j, int64_t *r,
                                 int64_t *c);
ML_API int ml_board_cell_position(ml_ctx *ctx, const ml_board *b, uint64_t i, int64_t *r,
                                  int64_t *c);
/* A, dense: n_cells x n_taps bytes, row i at out + i * ld (ML_ETOOLARGE past
 * ML_MAX_DENSE entries). */
ML_API int ml_board_matrix(ml_ctx *ctx, const ml_board *b, uint8_t *out, size_t ld);
/* The cells tap j advances, with repeats (count written; up to cap of them). */
ML_API int ml_board_effect(ml_ctx *ctx, const ml_board *b, uint64_t j, size_t *count,
                           int64_t *cells, size_t cap);

/* -- playing */
/* out = state + A taps (mod n); out may be state. */
ML_API int ml_board_apply(ml_ctx *ctx, const ml_board *b, const uint8_t *state,
                          const uint8_t *taps, uint8_t *out);
/* out = the state after tapping (r, c) `times` times (any integer, reduced mod n). */
ML_API int ml_board_press(ml_ctx *ctx, const ml_board *b, const uint8_t *state, int64_t r,
                          int64_t c, int64_t times, uint8_t *out);
/* A random state from SplitMix64(seed); solvable: -A x for random tap counts x. (Not
 * the states of Python's random_state, which draws from NumPy's generator.) */
ML_API int ml_board_random_state(ml_ctx *ctx, const ml_board *b, uint64_t seed,
                                 int solvable, uint8_t *out);

/* ================================================================== engines and plans
 * The registry: every engine and variant registers once, with a unique name, what it
 * covers and what it costs. ml_plan_choose is a pure function of the board, the method
 * and the backend: the cheapest engine that covers the board (method "auto"), the
 * cheapest of a family ("dense", "chase", "algebraic", "lifted", "tensor"), or the
 * engine named; the plan says why, and why every other engine was passed over. The
 * registry is process-wide and thread-safe. */

/* The registered engines, in registration order (index 0..count-1). An index is a
 * position in the current table: unregistering an engine moves the later ones down one,
 * so another thread's unregister between two calls may make an index name another
 * engine (or none: NULL, 0); read one engine by name (ml_engine_index) where engines
 * come and go. The strings given (names, families, descriptions) are interned: valid,
 * unchanged, while the library is loaded, even after their engine is unregistered.
 * ml_engine_count is -1 when the library's own engines could not be loaded (out of
 * memory; the calls with a status fail with ML_ENOMEM; the next call tries again). */
ML_API int ml_engine_count(void);
ML_API const char *ml_engine_name(int index);
ML_API const char *ml_engine_family(int index);
ML_API const char *ml_engine_description(int index);
/* The index of a registered name (-1 when none). */
ML_API int ml_engine_index(const char *name);
/* ML_Q_ bits of the optional questions it answers, ML_BACKEND_ bits of its backends,
 * and whether "auto" and its family may choose it (0 for a variant). */
ML_API unsigned ml_engine_answers(int index);
ML_API unsigned ml_engine_backends(int index);
ML_API int ml_engine_auto(int index);
/* One engine's own verdict on a board, as ml_plan_choose asks it: *covers = 1, or 0 and
 * why (snprintf convention). */
ML_API int ml_engine_covers(ml_ctx *ctx, int index, const ml_board *b, int *covers, char *why,
                            size_t cap, size_t *len);
/* One engine's estimated seconds for a board. */
ML_API int ml_engine_cost(ml_ctx *ctx, int index, const ml_board *b, double *seconds);

typedef struct ml_plan ml_plan;

/* The plan for a board. method: "auto" (NULL), a family or an engine name; backend:
 * "native" (NULL) or "reference" (the engines registered for it). */
ML_API int ml_plan_choose(ml_ctx *ctx, const ml_board *b, const char *method,
                          const char *backend, ml_plan **out);
ML_API void ml_plan_free(ml_plan *p);
/* The engine's registered name (the variant's, once a solver resolved it). */
ML_API const char *ml_plan_engine(const ml_plan *p);
ML_API const char *ml_plan_family(const ml_plan *p);
ML_API const char *ml_plan_reason(const ml_plan *p);
ML_API const char *ml_plan_variant(const ml_plan *p);   /* NULL unless a variant was taken */
ML_API const char *ml_plan_method(const ml_plan *p);
ML_API const char *ml_plan_backend(const ml_plan *p);
ML_API double ml_plan_cost(const ml_plan *p);            /* estimated seconds */
/* The engines passed over, in the order the plan explains them. */
ML_API size_t ml_plan_rejected_count(const ml_plan *p);
ML_API int ml_plan_rejected(const ml_plan *p, size_t i, const char **name,
                            const char **reason);
/* The plan as text, Python's Plan.explain() (snprintf convention). */
ML_API int ml_plan_explain(ml_ctx *ctx, const ml_plan *p, char *buf, size_t cap, size_t *len);
/* The plan as JSON, Python's Plan.to_dict() (snprintf convention). */
ML_API int ml_plan_to_json(ml_ctx *ctx, const ml_plan *p, char *buf, size_t cap, size_t *len);

/* -- the seam: an engine defined outside the library (a Python engine, a test's toy
 * engine) registers the same questions the library's own engines answer. */

/* The questions (bits of ml_engine_def.answers for the optional ones). */
enum {
    ML_Q_SOLVE = 1u << 0,
    ML_Q_GENERATORS = 1u << 1,
    ML_Q_NULLITY = 1u << 2,
    ML_Q_KERNEL_SIZE = 1u << 3,
    ML_Q_DET = 1u << 4,
    ML_Q_INVERSE = 1u << 5,
    ML_Q_PSEUDO_INVERSE = 1u << 6,
    ML_Q_KERNEL_FITS = 1u << 7,   /* optional */
    ML_Q_SOLVE_PACKED = 1u << 8   /* optional */
};
enum { ML_BACKEND_NATIVE = 1u << 0, ML_BACKEND_REFERENCE = 1u << 1 };

/* Every callback gets the engine's `user` pointer and the context of the call that
 * asked (to report a failure: ml_ctx_fail); it returns ML_OK or a status. A NULL
 * question is answered by the registry's fallback: the cheapest dense engine that
 * covers the board (det, inverse, pseudo-inverse of structured engines). Callbacks
 * run on the thread that made the call; they may call back into the library. */
typedef struct ml_engine_def {
    uint32_t size;              /* sizeof(ml_engine_def): the layout's version */
    const char *name;           /* unique; not "auto" nor a family name (copied) */
    const char *description;    /* one line (copied) */
    const char *family;         /* NULL: the name (copied) */
    unsigned answers;           /* ML_Q_ bits of the optional questions it answers */
    unsigned backends;          /* ML_BACKEND_ bits (0: native) */
    int auto_choose;            /* nonzero: "auto" and the family may choose it */
    void *user;
    /* ML_OK and *covers = 1 when it takes the board; else *covers = 0 and why (one
     * line) written to why (snprintf convention). A reason that fills the buffer is
     * asked for again with a larger one (up to 16 MiB), so the reason is kept whole:
     * covers may run more than once for one question. */
    int (*covers)(void *user, ml_ctx *ctx, const ml_board *b, int *covers, char *why,
                  size_t cap);
    /* Estimated seconds to factor the board and solve it once: a finite number >= 0
     * (else the question fails with ML_M_ENGINE_COST). */
    int (*cost)(void *user, ml_ctx *ctx, const ml_board *b, double *seconds);
    /* Factor the board: the engine's own state in *engine. */
    int (*build)(void *user, ml_ctx *ctx, const ml_board *b, void **engine);
    void (*destroy)(void *user, void *engine);
    /* R: k right-hand sides t - s over the cells (k x n_cells); X: k x n_taps tap
     * vectors; ok[i]: whether R[i] is solvable (X[i] unspecified when not). */
    int (*solve)(void *user, ml_ctx *ctx, void *engine, size_t k, const uint8_t *R,
                 uint8_t *X, uint8_t *ok);
    int (*nullity)(void *user, ml_ctx *ctx, void *engine, uint64_t *nullity);
    int (*kernel_size)(void *user, ml_ctx *ctx, void *engine, ml_factored *size);
    /* The first `limit` generators (k written, rows of H: k x n_taps, their orders);
     * called with H = NULL to ask for k alone. */
    int (*generators)(void *user, ml_ctx *ctx, void *engine, uint64_t limit, uint64_t *k,
                      uint8_t *H, uint32_t *orders);
    int (*det)(void *user, ml_ctx *ctx, void *engine, unsigned *det);
    int (*inverse)(void *user, ml_ctx *ctx, void *engine, uint8_t *out);
    int (*pseudo_inverse)(void *user, ml_ctx *ctx, void *engine, uint8_t *out);
    int (*kernel_fits)(void *user, ml_ctx *ctx, void *engine, int *fits);
    int (*solve_packed)(void *user, ml_ctx *ctx, void *engine, const uint8_t *packed,
                        unsigned fill, uint8_t *out, int *solvable);
    /* Called once when the engine is unregistered (may be NULL). */
    void (*release)(void *user);
} ml_engine_def;

ML_API int ml_engine_register(ml_ctx *ctx, const ml_engine_def *def);
ML_API int ml_engine_unregister(ml_ctx *ctx, const char *name);
/* For callbacks: record a failure on ctx (status and one-line message) and return the
 * status, so `return ml_ctx_fail(ctx, ML_EINVAL, "...")` reports it. */
ML_API int ml_ctx_fail(ml_ctx *ctx, int status, const char *message);

/* ================================================================== solvers
 * A solver factors a board's tap matrix once (by the plan's engine) and answers every
 * question from it. Use a solver from one thread at a time (its kernel and caches are
 * made on first use; a second thread gets ML_EMISUSE "the solver is in use"). */
typedef struct ml_solver ml_solver;

/* The solver of b by the engine ml_plan_choose(b, method, "native") picks. */
ML_API int ml_solver_new(ml_ctx *ctx, ml_board *b, const char *method, ml_solver **out);
/* The solver of b by a plan already chosen (any backend). */
ML_API int ml_solver_new_plan(ml_ctx *ctx, ml_board *b, const ml_plan *plan,
                              ml_solver **out);
ML_API void ml_solver_free(ml_solver *s);
ML_API const ml_board *ml_solver_board(const ml_solver *s);
/* The plan that answers, naming the variant the engine took (owned by the solver). */
ML_API const ml_plan *ml_solver_plan(const ml_solver *s);

/* -- structure */
ML_API int ml_solver_nullity(ml_ctx *ctx, ml_solver *s, uint64_t *out);
ML_API int ml_solver_rank(ml_ctx *ctx, ml_solver *s, uint64_t *out);  /* n_taps - nullity */
ML_API int ml_solver_kernel_size(ml_ctx *ctx, ml_solver *s, ml_factored *out);
ML_API int ml_solver_is_unique(ml_ctx *ctx, ml_solver *s, int *out);
ML_API int ml_solver_is_invertible(ml_ctx *ctx, ml_solver *s, int *out);
/* Generators of ker A (nullity rows of n_taps bytes, H[i * n_taps + j]) and their
 * additive orders; ker A is the direct sum of the cyclic groups they generate. The
 * canonical generators where their work bound allows (the same for every engine).
 * ML_ETOOLARGE past 1 GiB. */
ML_API int ml_solver_kernel(ml_ctx *ctx, ml_solver *s, uint8_t *H, uint32_t *orders);
ML_API int ml_solver_det(ml_ctx *ctx, ml_solver *s, unsigned *out);
/* n_taps x n_cells bytes. */
ML_API int ml_solver_inverse(ml_ctx *ctx, ml_solver *s, uint8_t *out);
ML_API int ml_solver_pseudo_inverse(ml_ctx *ctx, ml_solver *s, uint8_t *out);

/* -- solving */
/* The target: every tile `fill` (mod n) when tiles is NULL, else a board-shaped array. */
typedef struct ml_target {
    const uint8_t *tiles;
    unsigned fill;
} ml_target;

static inline ml_target ml_target_fill(unsigned fill)
{
    ml_target t;
    t.tiles = NULL;
    t.fill = fill;
    return t;
}
static inline ml_target ml_target_tiles(const uint8_t *tiles)
{
    ml_target t;
    t.tiles = tiles;
    t.fill = 0;
    return t;
}

/* A search budget: the default (a coset small enough is searched whole, by count,
 * proved and the same on every machine; a larger one for about a second), a count of
 * coset elements (the same answer on every machine), or seconds (a deadline). */
typedef enum ml_budget_kind {
    ML_BUDGET_DEFAULT = 0,
    ML_BUDGET_STEPS = 1,
    ML_BUDGET_SECONDS = 2
} ml_budget_kind;

typedef struct ml_budget {
    int kind;
    uint64_t steps;   /* ML_BUDGET_STEPS: coset elements (0: no search; > ML_MAX_BUDGET
                         means ML_MAX_BUDGET) */
    double seconds;   /* ML_BUDGET_SECONDS: >= 0 (infinity: no limit) */
} ml_budget;

static inline ml_budget ml_budget_default(void)
{
    ml_budget b;
    b.kind = ML_BUDGET_DEFAULT;
    b.steps = 0;
    b.seconds = 0.0;
    return b;
}
static inline ml_budget ml_budget_steps(uint64_t steps)
{
    ml_budget b = ml_budget_default();
    b.kind = ML_BUDGET_STEPS;
    b.steps = steps;
    return b;
}
static inline ml_budget ml_budget_seconds(double seconds)
{
    ml_budget b = ml_budget_default();
    b.kind = ML_BUDGET_SECONDS;
    b.seconds = seconds;
    return b;
}

/* The count ml_budget_default() searches a coset whole within on board b: about 2^30
 * operations (a coset step costs O(n_taps), / 64 over GF(2)), between 256 and 2^24
 * coset elements. A caller that wants the default's answer on every machine (no
 * deadline past it) passes ml_budget_steps(ml_board_default_steps(b)). */
ML_API uint64_t ml_board_default_steps(const ml_board *b);

/* Flags of ml_solver_solve. */
enum {
    ML_SOLVE_MINIMAL = 1u << 0, /* search the coset for the fewest taps (else the
                                   engine's particular solution) */
    ML_SOLVE_PROOF = 1u << 1    /* keep the search's proof (ml_result_certificate) */
};

typedef struct ml_result ml_result;

/* Whether some tap counts take state to target. */
ML_API int ml_solver_solvable(ml_ctx *ctx, ml_solver *s, const uint8_t *state,
                              ml_target target, int *out);
/* A solution of state + A x = target: with ML_SOLVE_MINIMAL one of the fewest taps
 * within the budget (ml_result_proven_minimal says whether it was proved).
 * ML_EUNSOLVABLE when none exists. */
ML_API int ml_solver_solve(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                           unsigned flags, ml_budget budget, ml_result **out);

ML_API void ml_result_free(ml_result *r);
ML_API const ml_board *ml_result_board(const ml_result *r);
/* Tap counts, ml_board_taps_size bytes, values 0..n-1 (owned by the result). */
ML_API const uint8_t *ml_result_taps(const ml_result *r);
ML_API uint64_t ml_result_length(const ml_result *r);        /* sum of the taps */
ML_API int ml_result_proven_minimal(const ml_result *r);
ML_API void ml_result_kernel_size(const ml_result *r, ml_factored *out);
ML_API uint64_t ml_result_examined(const ml_result *r);      /* coset elements examined */
ML_API uint64_t ml_result_pruned(const ml_result *r);        /* skipped by bounds */
ML_API double ml_result_seconds(const ml_result *r);         /* the search's time */
/* The moves: positions to tap, each repeated by its count, row-major (ml_result_length
 * of them; up to cap written; graph boards: cols all 0). Returns how many there are. */
ML_API uint64_t ml_result_moves(const ml_result *r, int64_t *rows, int64_t *cols,
                                uint64_t cap);
/* Solution.to_dict() as JSON (snprintf convention). */
ML_API int ml_result_to_json(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap,
                             size_t *len);
/* The certificate that no shorter solution exists (docs/certificates.md), as JSON;
 * ML_EUNAVAILABLE when not proved or solved without ML_SOLVE_PROOF. */
ML_API int ml_result_certificate(ml_ctx *ctx, const ml_result *r, char *buf, size_t cap,
                                 size_t *len);

/* -- batches: k states, one after another (k * ml_board_size bytes), one factorisation */
ML_API int ml_solver_solvable_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                                   ml_target target, uint8_t *ok);
/* taps: k * ml_board_taps_size bytes. ML_EUNSOLVABLE ("3 of 10 boards are unsolvable:
 * indices ...") when some are not; ok (may be NULL) says which. */
ML_API int ml_solver_solve_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                                ml_target target, unsigned flags, ml_budget budget,
                                uint8_t *taps, uint8_t *ok);
/* The fewest taps of every state (-1: unsolvable) and whether each is proved. */
ML_API int ml_solver_min_taps_many(ml_ctx *ctx, ml_solver *s, size_t k,
                                   const uint8_t *states, ml_target target,
                                   ml_budget budget, int64_t *lengths, uint8_t *proven);

/* -- every solution, one at a time (|ker A| of them; none when unsolvable) */
typedef struct ml_solutions ml_solutions;
ML_API int ml_solver_solutions(ml_ctx *ctx, ml_solver *s, const uint8_t *state,
                               ml_target target, ml_solutions **out);
/* The next solution's taps (ml_board_taps_size bytes); *done = 1 and nothing written
 * after the last. */
ML_API int ml_solutions_next(ml_ctx *ctx, ml_solutions *it, uint8_t *taps, int *done);
ML_API void ml_solutions_free(ml_solutions *it);

/* -- giant GF(2) boards, bit-packed: packed is rows x ceil(cols / 8) bytes, each row
 * as np.packbits(state, axis=1) writes it (the most significant bit first); target_packed
 * the same (NULL: every tile `fill`, 0 or 1). out: the taps, same layout. */
ML_API int ml_solver_solve_packed(ml_ctx *ctx, ml_solver *s, const uint8_t *packed,
                                  const uint8_t *target_packed, unsigned fill, uint8_t *out);

/* ================================================================== split searches
 * An exhaustive minimal search cut into tasks, for programs that run the tasks
 * themselves (the Python binding's executors and Dask, a C program's thread pool or
 * MPI ranks). The driver prepares the search and merges; workers run tasks on an
 * imported copy. The merge rule makes the answer independent of the order tasks finish
 * in and equal to the single-process search's length. Usage:
 *   ml_solver_search(...) -> search; ml_search_split(search, want, &tasks);
 *   ml_search_export(search, buf) -> bytes sent to each worker (ml_search_import);
 *   for each task t: bound = ml_search_bound(search, t) (ask right before sending),
 *     worker: ml_search_run(copy, t, bound, &res, best); driver: ml_search_merge(...);
 *   ml_search_finish(search, &result) once ml_search_done(search). */
typedef struct ml_search ml_search;

typedef struct ml_task_result {
    int found;           /* an element shorter than the bound was found (best written) */
    int complete;        /* the task covered its part (0: stopped) */
    int64_t length;      /* its length when found */
    uint64_t examined;   /* coset elements examined */
    uint64_t pruned;     /* skipped by bounds or symmetry */
} ml_task_result;

/* The coset of one state (x0 + ker A) prepared for a split exhaustive search (the
 * Walsh-Hadamard search for large GF(2) kernels, else the Gray-code walk, as
 * ml_solver_solve would choose). ML_EUNSOLVABLE as ml_solver_solve. */
ML_API int ml_solver_search(ml_ctx *ctx, ml_solver *s, const uint8_t *state, ml_target target,
                            ml_search **out);
/* k cosets sharing the kernel, split by rows (ml_search_lengths gives the answers). */
ML_API int ml_solver_search_many(ml_ctx *ctx, ml_solver *s, size_t k, const uint8_t *states,
                                 ml_target target, ml_search **out);
ML_API void ml_search_free(ml_search *q);
/* Cut into about `want` tasks (at least one); the count made in *tasks. */
ML_API int ml_search_split(ml_ctx *ctx, ml_search *q, uint64_t want, uint64_t *tasks);
/* The bound to give task t now (from what was merged so far). */
ML_API int ml_search_bound(ml_ctx *ctx, const ml_search *q, uint64_t t, int64_t *bound);
/* The bytes a worker needs (versioned, portable between machines of either byte order;
 * snprintf convention with bytes), and the worker's copy made from them. */
ML_API int ml_search_export(ml_ctx *ctx, const ml_search *q, uint8_t *buf, size_t cap,
                            size_t *len);
ML_API int ml_search_import(ml_ctx *ctx, const uint8_t *buf, size_t len, ml_search **out);
/* Run task t with a bound (worker side); best: n_taps bytes, written when found. */
ML_API int ml_search_run(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t bound,
                         ml_task_result *res, uint8_t *best);
/* Merge a task's answer (driver side). */
ML_API int ml_search_merge(ml_ctx *ctx, ml_search *q, uint64_t t, const ml_task_result *res,
                           const uint8_t *best);
/* Nonzero once every task was merged (or the best length is 0). */
ML_API int ml_search_done(const ml_search *q);
/* The answer of a one-coset search (proved when done, its proof kept for
 * ml_result_certificate as ml_solver_solve's with ML_SOLVE_PROOF). */
ML_API int ml_search_finish(ml_ctx *ctx, ml_search *q, ml_result **out);
/* The answers of a many-coset search: lengths (-1: unsolvable) and, when taps is not
 * NULL, a least-length solution each. */
ML_API int ml_search_lengths(ml_ctx *ctx, ml_search *q, int64_t *lengths, uint8_t *taps);

/* -- many-coset searches (ml_solver_search_many): a task is a range of the solvable
 * rows, each row's coset searched whole (minimal.min_lengths_many: the same lengths and
 * least-length solutions whatever the split and the order tasks finish in). Their tasks
 * take no bound (ml_search_bound gives 2^62, run ignores it) and answer a row each, so
 * ml_search_run / _merge / _finish refuse them (ML_EINVAL) and the calls below refuse a
 * one-coset search. Usage: ml_solver_search_many(...) -> search; ml_search_split;
 * ml_search_export -> bytes for workers (ml_search_import); for each task t:
 *   worker: ml_search_task_rows(copy, t, &rows); ml_search_run_rows(copy, t, lengths,
 *   taps); driver: ml_search_merge_rows(search, t, lengths, taps);
 * ml_search_lengths and ml_search_proven once ml_search_done (before: a row not merged
 * yet answers its coset's representative, not proved). */
/* The rows of task t (how many lengths / taps rows ml_search_run_rows writes). */
ML_API int ml_search_task_rows(ml_ctx *ctx, const ml_search *q, uint64_t t, uint64_t *rows);
/* Run task t (worker side, one thread; polls the stop flag: ML_EINTERRUPTED): lengths
 * (rows of them) and, when taps is not NULL, a least-length element of each row's coset
 * (rows x n_taps bytes, tap-vector order as ml_search_run's best). */
ML_API int ml_search_run_rows(ml_ctx *ctx, ml_search *q, uint64_t t, int64_t *lengths,
                              uint8_t *taps);
/* Merge task t's answer (driver side); taps NULL: lengths only (ml_search_lengths then
 * answers with taps NULL only). A task merged twice is ML_ERANGE. */
ML_API int ml_search_merge_rows(ml_ctx *ctx, ml_search *q, uint64_t t, const int64_t *lengths,
                                const uint8_t *taps);
/* Whether each of the k states' lengths is proved (k bytes): 1 for an unsolvable state
 * and for the rows of merged tasks (all of them once ml_search_done). */
ML_API int ml_search_proven(ml_ctx *ctx, const ml_search *q, uint8_t *proven);

/* ================================================================== puzzles
 * The puzzle layer every binding shares: codes, the PRNG, daily puzzles, generate,
 * difficulty bands and stars (play/puzzles.py's rules, byte for byte). */

typedef enum ml_difficulty {
    ML_EASY = 0,
    ML_MEDIUM = 1,
    ML_HARD = 2,
    ML_EXPERT = 3,
    ML_DIFFICULTY_COUNT = 4
} ml_difficulty;

/* "easy", "medium", "hard", "expert" (NULL for others). */
ML_API const char *ml_difficulty_name(int difficulty);
ML_API int ml_difficulty_lookup(ml_ctx *ctx, const char *name, int *difficulty);
/* The tap bands: lo[d]..hi[d] (inclusive) fewest taps of difficulty d on a board of
 * n_taps tappable tiles and `states` states (integer arithmetic). */
ML_API void ml_tap_bands(uint64_t n_taps, int states, uint64_t lo[4], uint64_t hi[4]);
/* The difficulty whose band holds min_taps (easy below, expert above). */
ML_API int ml_difficulty_of(uint64_t min_taps, uint64_t n_taps, int states);
/* The most taps that earn 3, 2 and 1 stars (limits[0], [1], [2]) for a minimum of m. */
ML_API void ml_stars_limits(uint64_t min_taps, uint64_t limits[3]);
/* Stars for solving in `taps` taps under those limits (0 past the 1-star limit). */
ML_API int ml_stars_for_taps(const uint64_t limits[3], uint64_t taps);

/* -- SplitMix64 (Steele, Lea & Flood): every draw that must be the same on every
 * machine (generate, daily) comes from it. The state is plain data. */
typedef struct ml_prng {
    uint64_t state;
} ml_prng;

ML_API void ml_prng_seed(ml_prng *g, uint64_t seed);
/* A 64-bit seed from text or bytes: the first 8 bytes of their SHA-256, big-endian
 * (Python's seed_from of a str or bytes). */
ML_API uint64_t ml_seed_from_bytes(const void *data, size_t len);
/* A seed from the operating system's randomness. */
ML_API int ml_seed_random(ml_ctx *ctx, uint64_t *seed);
ML_API uint64_t ml_prng_next(ml_prng *g);
/* Uniform in [0, n) by rejection (n = 0 gives 0). */
ML_API uint64_t ml_prng_below(ml_prng *g, uint64_t n);
/* k distinct indices of 0..n-1 in random order (Python's SplitMix64.sample(range(n), k)). */
ML_API int ml_prng_sample(ml_ctx *ctx, ml_prng *g, uint64_t n, uint64_t k, uint64_t *out);

/* -- puzzles: a grid board and a start state to bring to all zeros */
typedef struct ml_puzzle ml_puzzle;

/* Measured on first use (a minimal solve within a fixed count of coset elements, so
 * the same on every machine) and kept. */
typedef struct ml_puzzle_stats {
    uint64_t min_taps;      /* the fewest taps found (proved when proven) */
    int proven;
    int difficulty;         /* ml_difficulty */
    uint64_t stars[3];      /* the most taps for 3, 2 and 1 stars */
    uint64_t touched;       /* tiles not at 0 at the start */
    double score;           /* min_taps over the top of the expert band, at most 1 */
} ml_puzzle_stats;

ML_API int ml_puzzle_new(ml_ctx *ctx, ml_board *b, const uint8_t *start, ml_puzzle **out);
/* The puzzle of a code (every check of Python's Puzzle.from_code; ML_ECODE). */
ML_API int ml_puzzle_from_code(ml_ctx *ctx, const char *code, size_t len, ml_puzzle **out);
ML_API int ml_puzzle_from_json(ml_ctx *ctx, const char *json, size_t len, int64_t max_tiles,
                               ml_puzzle **out);
ML_API void ml_puzzle_free(ml_puzzle *p);
ML_API const ml_board *ml_puzzle_board(const ml_puzzle *p);
ML_API const uint8_t *ml_puzzle_start(const ml_puzzle *p);    /* ml_board_size bytes */
/* The code (NUL-terminated, owned by the puzzle). */
ML_API int ml_puzzle_code(ml_ctx *ctx, ml_puzzle *p, const char **code);
ML_API int ml_puzzle_stats_get(ml_ctx *ctx, ml_puzzle *p, ml_puzzle_stats *out);
/* The minimal solution measured (owned by the puzzle). */
ML_API int ml_puzzle_solution(ml_ctx *ctx, ml_puzzle *p, const ml_result **out);
ML_API int ml_puzzle_equal(const ml_puzzle *a, const ml_puzzle *b);
/* Puzzle.to_dict() as JSON (snprintf convention). */
ML_API int ml_puzzle_to_json(ml_ctx *ctx, ml_puzzle *p, char *buf, size_t cap, size_t *len);

/* The puzzle code of a grid board and a start (version 1: base64url of the header, the
 * pattern, the masks and the start values, then a CRC32), snprintf convention. */
ML_API int ml_code_encode(ml_ctx *ctx, const ml_board *b, const uint8_t *start, char *buf,
                          size_t cap, size_t *len);

/* -- generate: Python's ml.generate, the same puzzle for the same settings and seed */
typedef struct ml_generate_opts {
    uint32_t size;              /* sizeof(ml_generate_opts): the layout's version */
    int64_t rows, cols;         /* 5, 5 */
    int states;                 /* 2 */
    const char *pattern;        /* "cross"; ignored when grid is given */
    const ml_grid *grid;        /* NULL, or a described grid whose pattern (mixed too),
                                   wrap, locked tiles and holes are fixed settings */
    int difficulty;             /* ML_MEDIUM */
    int64_t locked, holes;      /* tiles to lock / cut at random; -1 (default): none
                                   given (with unique, as few locks as make it unique) */
    int wrap;                   /* 0 */
    int unique;                 /* 1: a trivial kernel (every start one solution) */
    uint64_t seed;              /* used when seeded */
    int seeded;                 /* 0: a random seed (ml_seed_random) */
} ml_generate_opts;

/* Python's defaults. */
ML_API void ml_generate_opts_init(ml_generate_opts *opts);
ML_API int ml_generate(ml_ctx *ctx, const ml_generate_opts *opts, ml_puzzle **out);

/* The day's three puzzles (easy, medium, hard), the same on every machine: drawn from
 * SplitMix64 seeded with "modlights-daily-v2:YYYY-MM-DD". out[0..2] receive them. */
ML_API int ml_daily(ml_ctx *ctx, int year, int month, int day, ml_puzzle *out[3]);
/* year, month, day of an ISO date "YYYY-MM-DD" (Python's messages for bad dates). */
ML_API int ml_date_parse(ml_ctx *ctx, const char *text, int *year, int *month, int *day);

/* ================================================================== certificates
 * The certificate checker (docs/certificates.md): csrc/verify, which shares no code with
 * the solver whose answers it checks (it reads the board from the certificate's board
 * dict and builds the tap matrix itself). The same verdicts and messages as Python's
 * modlights.verify(cert, max_work=None). */

/* Check the certificate `json` (len bytes of JSON text) in exact arithmetic. ML_OK when
 * every step holds; the one line saying what it proves (Python's verify.summary) goes to
 * summary (snprintf convention; summary NULL and cap 0 when not wanted; *summary_len, when
 * summary_len is not NULL, receives its full length). A certificate that does not hold
 * (or is malformed) is ML_EINVAL with message id ML_M_CERT_INVALID and Python's message
 * naming the first step that fails; one that is not a modlights certificate of a known
 * format, version and kind is ML_EINVAL with ML_M_CERT_FORMAT; text that is not JSON is
 * ML_M_JSON_SYNTAX. No work bound (Python's max_work): long checks poll the stop flag
 * (ML_EINTERRUPTED); ML_ENOMEM when a step's memory cannot be had. Complexity: the
 * eliminations of A mod every prime power of n (O(min(m, r) m r)), a walk of every coset
 * element an enumeration or a leaf of a tree proof names (O(nonzeros of a generator)
 * each), O(E r n) big-integer additions for an LP bound over E weighted elements. */
ML_API int ml_verify_json(ml_ctx *ctx, const char *json, size_t len, char *summary,
                          size_t cap, size_t *summary_len);

#ifdef __cplusplus
}
#endif

#endif /* MODLIGHTS_H */
