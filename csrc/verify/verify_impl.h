/* verify_impl.h: what the pieces of the certificate checker share (library-internal).
 *
 * The checker (modlights.h: ml_verify_json; docs/certificates.md) is csrc/verify alone:
 *   verify.c           the entry point, the format checks, the claims' order, the summary
 *   verify_read.c      the certificate's JSON values as Python's checker reads them
 *                      (_field, _int, _ints) and the messages' pieces (type names, repr)
 *   verify_board.c     the board from the certificate's board dict, A in coordinate form
 *   verify_algebra.c   A x, A's sorted entries, elimination mod p^e, the kernel checks,
 *                      coordinates in the generators, the coset walk
 *   verify_claims.c    "minimal" claims: enumeration, trees, symmetries
 *   verify_upper.c     "hardest" claims' upper bounds: weights, LP duals, LP trees
 *   verify_big.c       the unsigned big integers of the LP weights
 * It shares no code with the solver whose answers it checks: nothing of csrc/engines,
 * dense, chase, search, structured, poly, play or the C board model (api/board.c); its
 * arithmetic (mod p^e, the big integers) is its own. It uses the library's JSON reader
 * (api/json.c: a parser of the text, as Python's checker uses Python's json module) and
 * the error slot of the context (api/ctx.c). Python's checker (src/modlights/search/
 * verify/) is its specification: the same steps in the same order, the same messages.
 *
 * Exactness: tile values, coefficients and orders are below 256; sums of products of
 * two of them over at most 2^27 terms stay below 2^43 in int64; LP weights are big
 * integers (verify_big.c). */
#ifndef ML_VERIFY_IMPL_H
#define ML_VERIFY_IMPL_H

#include "include/modlights.h"
#include "api/json.h"

#include <stddef.h>
#include <stdint.h>

/* Longest message the checker writes (longer ones are cut by Python's rules first). */
#define MV_MSG 4096

/* A function compiled twice, with the POPCNT instruction and for the default target,
 * chosen by the loader (x86 only; elsewhere, WebAssembly and ARM, the plain function):
 * without it __builtin_popcountll is a call into libgcc's software count. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__clang__)
#define MV_CLONES_POPCNT __attribute__((target_clones("popcnt", "default")))
#else
#define MV_CLONES_POPCNT
#endif

/* One check in progress: the document, the first failure. */
typedef struct mv {
    const ml_json *j;
    int rc;                 /* ML_OK, or the failure's status */
    int format;             /* the failure is "not a certificate" (ML_M_CERT_FORMAT) */
    char msg[MV_MSG];
} mv;

/* Record a failing step (printf format; the first failure only) and return ML_EINVAL. */
int mv_fail(mv *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, the message cut to `chars` characters (Python's "..."[:300]). */
int mv_fail_cut(mv *v, size_t chars, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* ML_ENOMEM (no message of the checker's: the entry point writes the table's). */
int mv_nomem(mv *v);
/* ML_EINTERRUPTED when the stop flag is up (ml_interrupt_poll), else ML_OK. */
int mv_poll(mv *v);

#define MV_NONE ((size_t)-1)

/* A count as an allocation's size, at least 1 (malloc(0) may answer NULL). */
static inline size_t mv_sz(int64_t a) { return a > 0 ? (size_t)a : 1; }

/* ---- verify_read.c: values of the document (token indices into v->j) */
/* Python's type name of the value ("int", "list", "NoneType"...); "NoneType" for MV_NONE. */
const char *mv_type(const mv *v, size_t t);
/* repr of the value into buf (cut to cap - 1 bytes); "None" for MV_NONE. */
const char *mv_repr(const mv *v, size_t t, char *buf, size_t cap);
/* Whether the value is a Python int (JSON integer, not a bool). */
int mv_is_int(const mv *v, size_t t);
int mv_is_list(const mv *v, size_t t);
int mv_is_dict(const mv *v, size_t t);
int mv_is_str(const mv *v, size_t t, const char *s);   /* a string equal to s */
/* d[key] (the last when twice) or MV_NONE. */
size_t mv_get(const mv *v, size_t d, const char *key);
/* Items of a list / dict: first item (or key) and the next sibling. */
size_t mv_first(const mv *v, size_t t);
size_t mv_next(const mv *v, size_t t);
size_t mv_count(const mv *v, size_t t);

/* An integer of the document: its value when it fits int64 (big: text only). */
typedef struct mv_int {
    int64_t i;
    int big;                /* beyond int64: compare and print by text */
    int neg;
    const char *text;
    size_t len;
} mv_int;
/* The integer at t (mv_is_int must hold). */
mv_int mv_int_of(const mv *v, size_t t);
/* -1, 0, 1 as a < b. */
int mv_int_cmp(mv_int a, mv_int b);
int mv_int_cmp64(mv_int a, int64_t b);
/* Its decimal text into buf. */
const char *mv_int_text(mv_int a, char *buf, size_t cap);

/* _field(d, key, what): the value of key in the dict d, else a failure. */
int mv_field(mv *v, size_t d, const char *key, const char *what, size_t *out);
/* _int(t, what, lo, hi) (has_hi 0: no upper bound). */
int mv_int_in(mv *v, size_t t, const char *what, int64_t lo, int64_t hi, int has_hi,
              mv_int *out);
/* The "lower" and "upper" fields of cert (integers >= 0, lower <= upper: "lower L >
 * upper U"), and their texts into lt and ut (cap bytes each). */
int mv_lower_upper(mv *v, size_t cert, mv_int *L, mv_int *U, char *lt, char *ut, size_t cap);
/* "exactly L" when L = U, else "between L and U" (Python's _value_text). */
void mv_value_text(mv_int L, mv_int U, const char *lt, const char *ut, char *out, size_t cap);
/* _ints(t, what, length (-1: any), lo, hi): the entries into out8 (uint8) or out64. */
int mv_ints(mv *v, size_t t, const char *what, int64_t length, int64_t lo, int64_t hi,
            uint8_t *out8, int64_t *out64, size_t *count);

/* ---- verify_big.c: unsigned big integers, little-endian 32-bit limbs */
typedef struct mv_big {
    uint32_t *d;
    size_t n, cap;          /* n limbs in use, no leading zero limb (0 is n = 0) */
} mv_big;

void mv_big_free(mv_big *a);
int mv_big_set_u64(mv_big *a, uint64_t x);
int mv_big_copy(mv_big *a, const mv_big *b);
/* Decimal digits (no sign). */
int mv_big_from_dec(mv_big *a, const char *s, size_t len);
/* Decimal text, malloc'd (NULL: no memory). */
char *mv_big_to_dec(const mv_big *a);
int mv_big_cmp(const mv_big *a, const mv_big *b);
int mv_big_add(mv_big *a, const mv_big *b);                  /* a += b */
int mv_big_sub(mv_big *a, const mv_big *b);                  /* a -= b (a >= b) */
int mv_big_mul(mv_big *out, const mv_big *a, const mv_big *b);
int mv_big_mul_small(mv_big *a, uint32_t m);                 /* a *= m */
/* q = a / b, r = a % b (b != 0; q or r may be NULL). */
int mv_big_divmod(const mv_big *a, const mv_big *b, mv_big *q, mv_big *r);
int mv_big_gcd(mv_big *g, const mv_big *a, const mv_big *b);
/* "p/q" reduced, or "p" (Python's str(Fraction(a, b)), b != 0), malloc'd. */
char *mv_big_frac(const mv_big *a, const mv_big *b);

/* ---- verify_board.c and verify_algebra.c: the matrix A */
typedef struct mv_matrix {
    int n;                  /* states */
    int64_t m, r;           /* cells, taps */
    int64_t nnz;            /* coordinate form: (ci[k], tj[k]), repeats add up */
    int32_t *ci, *tj;
    /* the sorted nonzero entries (mv_entries of A itself; NULL until asked) */
    uint64_t *keys;
    uint8_t *vals;
    int64_t nent;
} mv_matrix;

/* A of the board dict at token b (Python's _read_board and _Board.coo). */
int mv_board(mv *v, size_t b, mv_matrix *A);
void mv_matrix_free(mv_matrix *A);

/* The prime powers of n (n <= 255: at most 4). */
typedef struct mv_pp {
    int count;
    int p[4], e[4], q[4];
} mv_pp;
mv_pp mv_prime_powers(int n);
/* a^-1 mod q (a coprime to q). */
int mv_inv(int a, int q);

/* acc = A x mod n (x: r entries, acc: m). */
void mv_apply(const mv_matrix *A, const uint8_t *x, uint8_t *acc);
/* The sorted nonzero entries of A with rows and columns renamed (NULL: as they are):
 * keys i * r + j, values mod n; malloc'd. */
int mv_entries(mv *v, const mv_matrix *A, const int64_t *cells, const int64_t *taps,
               uint64_t **keys, uint8_t **vals, int64_t *count);

/* A pivot of an elimination: row, column, the p-valuation of the pivot. */
typedef struct mv_piv {
    int64_t i, j;
    int v;
} mv_piv;
/* Python's _eliminate of M (a x b, bytes mod q = p^e, changed in place) with the same row
 * operations on Z (a x t, may be NULL); pivots (room for min(a, b)) and their count. */
int mv_eliminate(mv *v, uint8_t *M, int64_t a, int64_t b, int p, int e, uint8_t *Z,
                 int64_t t, mv_piv *piv, int64_t *npiv);

/* The checked kernel: generators h_0..h_{k-1} (k x r bytes) and their orders. */
typedef struct mv_kernel {
    int n;
    int64_t k, r;
    uint8_t *H;
    int *orders;
} mv_kernel;
void mv_kernel_free(mv_kernel *K);
/* _check_kernel of the dict at kd ("kernel", or a proof carrying its generators). */
int mv_check_kernel(mv *v, size_t kd, mv_matrix *A, const char *what, mv_kernel *K);
/* coords: C (t x k) with sum_i C[s][i] h_i = column s of Z (r x t) and C[s][i] mod o_i;
 * fails with "a vector is not in the span of the kernel generators". */
int mv_coords(mv *v, const mv_kernel *K, const uint8_t *Z, int64_t t, int64_t *C);
/* min over c (0 <= c_i < o_i, i < k) of sum((y + sum c_i h_i) mod n): every element. */
int mv_coset_min(mv *v, const uint8_t *y, const uint8_t *H, const int *orders, int64_t k,
                 int64_t r, int n, int64_t *out);

/* ---- verify_claims.c and verify_upper.c: the claims; `how` receives a malloc'd few words */
/* A symmetry's cells and taps are permutations mapping A onto itself (verify_claims.c;
 * seen: max(m, r) + 1 bytes); else fails naming w. */
int mv_automorphism(mv *v, const char *w, mv_matrix *A, const int64_t *cells,
                    const int64_t *taps, uint8_t *seen);
int mv_check_minimal(mv *v, size_t d, const char *what, mv_matrix *A, const mv_kernel *K,
                     char **how);
int mv_check_upper(mv *v, size_t ub, mv_int U, mv_matrix *A, const mv_kernel *K,
                   char **how);
/* verify_bounds.c: the "bounds" claim of the certificate at cert (no kernel); *out
 * receives the summary line (malloc'd). */
int mv_check_bounds(mv *v, size_t cert, mv_matrix *A, char **out);
/* Python's _covering: the "lower_bound" covering weights of claim d for rhs b ("what":
 * "" or "witness ", the messages' prefix), L <= their bound, which goes to *bound. */
int mv_covering(mv *v, size_t d, const char *what, const uint8_t *b, const mv_matrix *A,
                mv_int L, int64_t *bound);
/* Python's _check_covering_witness: a hardest witness by covering weights (no proof);
 * *how receives its few words (malloc'd). */
int mv_check_covering_witness(mv *v, size_t d, mv_int L, mv_matrix *A, char **how);

/* A malloc'd printf (NULL: no memory). */
char *mv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- verify_count.c: the group counts of an lp-tree */
/* A group count of an lp-tree: the taps whose values sum into lo..hi. */
typedef struct group_count {
    int64_t *taps;
    int64_t size, lo, hi;
} group_count;

/* A node on the path of an lp-tree: a tap (kind 0: j, its value) or a group count
 * (kind 1: j its index in cons, value the child's interval, edges lo, s_1, ..., s_t,
 * hi + 1; fresh when the node made the count, else the interval before it). */
typedef struct frame {
    int kind, fresh;
    int64_t j, value, nedges, prev_lo, prev_hi;
    int64_t *edges;
    size_t start;           /* the node's number in the tree */
} frame;

/* The box of an lp-tree node a symmetry node names: its fixed taps (fixed[j] >= 0) and
 * counts (taps[start[g]..start[g+1]-1] summing into lo[g]..hi[g]). */
typedef struct mv_box {
    int *fixed;
    int64_t ncons;
    int64_t *lo, *hi, *start, *taps;
} mv_box;

/* The n sums of tap j, sum_t S[j][t] ((a + t) mod n) for a = 0..n-1, from its limbs Sj
 * (n x LS limbs) into sums (n x LT limbs). */
void mv_tap_sums(const uint32_t *Sj, int n, size_t LS, size_t LT, uint32_t *sums);
/* Fixed-width unsigned compare of x and y (L limbs each): -1, 0 or 1. */
int mv_limbs_cmp(const uint32_t *x, const uint32_t *y, size_t L);
/* The largest sum over the taps of g of their sums at values x with g->lo <= sum(x) <=
 * g->hi, added to total (S: r x n x LS limbs). */
int mv_count_max(mv *v, const uint32_t *S, int n, size_t LS, size_t LT, const group_count *g,
                 mv_big *total);
/* Reads the branch-group node nd (its taps at bg, number pos of the tree), makes or
 * narrows its group count in cons (cnt_of: tap -> count or -1; mark: r zero bytes,
 * left zero) and enters its first child, whose frame is *f. */
int mv_branch_group(mv *v, size_t nd, size_t bg, size_t pos, int64_t r, int n,
                    const int *fixed, int64_t *cnt_of, uint8_t *mark, group_count *cons,
                    int64_t *ncons, frame *f);

/* _tree_symmetries: the lp-tree's "symmetries" (absent: none), each checked to be a
 * pair of permutations preserving A; *inv (nsym x r, malloc'd) holds each tap
 * permutation's inverse. */
int mv_tree_symmetries(mv *v, size_t ub, mv_matrix *A, int64_t **inv, int64_t *nsym);
/* Keeps the box of the current node (fixed taps, the counts cons[0..ncons-1]) in *b. */
int mv_box_keep(mv *v, mv_box *b, const int *fixed, int64_t r, const group_count *cons,
                int64_t ncons);
void mv_box_free(mv_box *b);
/* _symmetry_node: the symmetry node nd (number pos) maps the current box (fixed,
 * cnt_of, cons) into the box of the node it names, whose subtree has ended (closed;
 * boxes indexed by node number, count nodes in all). */
int mv_symmetry_node(mv *v, size_t nd, size_t pos, const int64_t *inv, int64_t nsym,
                     const mv_box *boxes, const uint8_t *closed, size_t count, int64_t r,
                     int n, const int *fixed, const int64_t *cnt_of, const group_count *cons);

#endif
