/* registry_own.c: the covers and costs of the library's own engines, as
 * engines/registry.py and the engines' *_reason functions give them (reasons character
 * for character, from the message table's ML_R_ entries; costs by the same constants
 * and floating-point operations in the same order, so the same doubles).
 *
 * Ported: dense_reason, chase_reason (and the variants' reasons, rowsolve_reason with
 * _rowsolve_layout and check_residual_size), algebraic_reason (cross, torus),
 * sym_reason with _orientation (csrc/structured/symchase.c decides C_1's
 * invertibility), lifted_reason, tensor_reason with factor_pattern and _parts (each
 * 1-D factor's band, reversal, symbols and, for n with two or more primes, whether its
 * residual matrix M is invertible: computed here by the same chase, then eliminated
 * mod each prime). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "api/registry_impl.h"
#include "api/registry_costs.h"
#include "api/board.h"
#include "engines/algebraic.h"
#include "engines/lifted.h"
#include "engines/torus.h"
#include "engines/torus2.h"
#include "engines/dense.h"
#include "engines/tensor.h"
#include "chase/rowsolve.h"
#include "engines/chase.h"
#include "engines/chase_impl.h"
#include "structured/symchase.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */
static int why_fmt(char *why, size_t cap, int id, ...)
{
    va_list ap;
    va_start(ap, id);
    vsnprintf(why, cap, ml_msg_template(id), ap);
    va_end(ap);
    return 0;
}

static int is_grid(const ml_board *b) { return b->kind == ML_BOARD_GRID; }

/* The one pattern of a uniform grid (NULL for mixed grids and graph boards). */
static const ml__pattern *uniform(const ml_board *b)
{
    return is_grid(b) && !b->mixed ? &b->pal[0] : NULL;
}

/* count of the offset (dr, dc) in p */
static long cnt(const ml__pattern *p, long dr, long dc)
{
    long k = 0;
    for (size_t i = 0; i < p->count; i++)
        k += p->dr[i] == dr && p->dc[i] == dc;
    return k;
}

static int is_prime(int n)
{
    if (n < 2)
        return 0;
    for (int d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

int ml__primes_of(int n, int *p, int *pk)
{
    int k = 0;
    for (int d = 2; d <= n; d++) {
        if (n % d)
            continue;
        p[k] = d;
        pk[k] = 1;
        while (n % d == 0) {
            n /= d;
            pk[k] *= d;
        }
        k++;
    }
    return k;
}

/* The smallest offset of p (by (dr, dc)) outside the set `in` accepts; 0 when none. */
static int least_outside(const ml__pattern *p, int (*in)(long, long), long *dr, long *dc)
{
    int found = 0;
    for (size_t i = 0; i < p->count; i++) {
        long r = p->dr[i], c = p->dc[i];
        if (in(r, c))
            continue;
        if (!found || r < *dr || (r == *dr && c < *dc)) {
            *dr = r;
            *dc = c;
            found = 1;
        }
    }
    return found;
}

/* ------------------------------------------------------------------ costs */
/* The constants: registry_costs.h (the one table; bench engine-costs measures them). */
static const ml__engine_cost_row *cost_row(const char *name)
{
    for (int i = 0; i < ML__N_ENGINE_COSTS; i++)
        if (!strcmp(ML__ENGINE_COSTS[i].name, name))
            return &ML__ENGINE_COSTS[i];
    return NULL;
}

static uint64_t tiles(const ml_board *b) { return (uint64_t)b->rows * (uint64_t)b->cols; }

static double dense_cost(const ml_board *b)
{
    if (is_grid(b)) {
        unsigned __int128 t = tiles(b);
        return ML__DENSE_PER_ENTRY * (double)(t * t);
    }
    return ML__DENSE_PER_ENTRY * (double)(b->n_cells * b->n_taps);
}

/* NaN (refused by check_cost) when the table has no "chase" row */
static double chase_setup(void)
{
    const ml__engine_cost_row *c = cost_row("chase");
    if (!c)
        return NAN;
    double t = (double)c->crossover;
    return ML__DENSE_PER_ENTRY * t * t - c->per_tile * t - ML__COST_TIE;
}

static double chase_slope(void)
{
    const ml__engine_cost_row *c = cost_row("chase");
    return c ? c->per_tile : NAN;
}

static double chase_cost(const ml_board *b) { return chase_setup() + chase_slope() * (double)tiles(b); }

/* SETUP + per_tile * tiles, the line meeting the chase's at the engine's crossover (less
 * the tie); NaN (refused by check_cost) for an engine missing from the table. */
static double structured(const char *name, const ml_board *b)
{
    const ml__engine_cost_row *e = cost_row(name);
    if (!e)
        return NAN;
    double slope = e->per_tile, t = (double)e->crossover;
    double setup = chase_setup() + (chase_slope() - slope) * t - ML__COST_TIE;
    return setup + slope * (double)tiles(b);
}

static double cross_cost(const ml_board *b) { return structured("algebraic-cross", b); }
static double torus_cost(const ml_board *b) { return structured("algebraic-torus", b); }
/* algebraic-torus2: on the cross family's tori, which algebraic-torus takes, just above
 * that engine's cost; elsewhere its own line */
static int algebraic_reason(const ml_board *b, int q, char *why, size_t cap);
static double torus2_cost(const ml_board *b)
{
    char why[ML_WHY_MAX];
    if (b->wrap && algebraic_reason(b, b->n, why, sizeof why))
        return torus_cost(b) + 1e-9;
    return structured("algebraic-torus2", b);
}
static double sym_cost(const ml_board *b) { return structured("algebraic-sym", b); }
static double sym_odd_cost(const ml_board *b) { return structured("algebraic-sym-odd", b); }
/* lifted: its row "lifted" on a squarefree n (a part over GF(p) per prime), "lifted-zq"
 * when a prime power p^k, k > 1, divides n (a part over Z/p^k) */
static double lifted_cost(const ml_board *b)
{
    int p[8], pk[8], k = b->n >= 2 ? ml__primes_of(b->n, p, pk) : 0, zq = 0;
    for (int i = 0; i < k; i++)
        zq |= pk[i] != p[i];
    return structured(zq ? "lifted-zq" : "lifted", b);
}
static double tensor_cost(const ml_board *b) { return structured("tensor", b); }

/* ------------------------------------------------------------------ dense */
static int dense_reason(const ml_board *b, char *why, size_t cap)
{
    if (b->giant) {
        why_fmt(why, cap, ML_R_DENSE_GIANT, (long long)ML_MAX_TILES);
        return 0;
    }
    return 1;
}

static int dense_gf2_covers(const ml_board *b, char *why, size_t cap)
{
    if (b->n != 2)
        return why_fmt(why, cap, ML_R_DENSE_GF2_ONLY, b->n);
    return dense_reason(b, why, cap);
}

static int dense_zn_covers(const ml_board *b, char *why, size_t cap)
{
    if (b->n == 2)
        return why_fmt(why, cap, ML_R_DENSE_ZN_ONLY);
    return dense_reason(b, why, cap);
}

/* ------------------------------------------------------------------ the chase */
#define MAX_CHASE_OFFSETS 4096

/* chase_supports: at most MAX_CHASE_OFFSETS distinct offsets over every tile's pattern */
static int chase_supports(const ml_board *b)
{
    if (!b->mixed)
        return 1;   /* one pattern: at most ML_MAX_OFFSETS <= MAX_CHASE_OFFSETS */
    uint64_t t = tiles(b);
    uint8_t *used = calloc(b->n_pal ? b->n_pal : 1, 1);
    const size_t side = 2 * ML_MAX_REACH + 1;
    uint64_t *seen = calloc((side * side + 63) / 64, sizeof *seen);
    int ok = 1;
    if (!used || !seen) {
        ok = 1;   /* out of memory: the chase itself says so when built */
        goto done;
    }
    for (uint64_t f = 0; f < t; f++)
        used[b->tile_pal[f]] = 1;
    size_t distinct = 0;
    for (uint32_t k = 0; k < b->n_pal && ok; k++) {
        if (!used[k])
            continue;
        const ml__pattern *p = &b->pal[k];
        for (size_t i = 0; i < p->count; i++) {
            size_t at = (size_t)(p->dr[i] + ML_MAX_REACH) * side + (size_t)(p->dc[i] + ML_MAX_REACH);
            if (!(seen[at / 64] >> (at % 64) & 1)) {
                seen[at / 64] |= 1ull << (at % 64);
                if (++distinct > MAX_CHASE_OFFSETS) {
                    ok = 0;
                    break;
                }
            }
        }
    }
done:
    free(used);
    free(seen);
    return ok;
}

static int chase_covers(const ml_board *b, char *why, size_t cap)
{
    if (!is_grid(b))
        return why_fmt(why, cap, ML_R_CHASE_GRID);
    if (b->giant)
        return why_fmt(why, cap, ML_R_CHASE_GIANT, (long long)ML_MAX_TILES);
    if (!chase_supports(b))
        return why_fmt(why, cap, ML_R_CHASE_OFFSETS, MAX_CHASE_OFFSETS);
    return 1;
}

/* check_residual_size: 1 when it fits, else 0 and its message */
static int residual_fits(uint64_t nres, uint64_t nsym, int n, char *why, size_t cap)
{
    ml__residual_size z;
    if (ml__chase_residual_fits(nres, nsym, n, &z))
        return 1;
    why_fmt(why, cap, ML_M_CHASE_RESIDUAL, (unsigned long long)nres, (unsigned long long)nsym,
            n, z.mib, z.work_log2, z.max_mib, z.max_work_log2);
    return 0;
}

/* _rowsolve_layout's symbols (D * w of the better orientation), or 0 when it has none
 * (or the layout runs out of memory: not covered) */
static uint64_t rowsolve_symbols(const ml_board *b)
{
    ml__rowsolve_layout L;
    uint64_t sym = ml__rowsolve_layout_of(b, &L) > 0 ? L.sym : 0;
    ml__rowsolve_layout_free(&L);
    return sym;
}

static int rowsolve_covers(const ml_board *b, char *why, size_t cap)
{
    if (!is_grid(b))
        return why_fmt(why, cap, ML_R_ROWSOLVE_GRID);
    uint64_t sym = rowsolve_symbols(b);
    if (!sym)
        return why_fmt(why, cap, ML_R_ROWSOLVE_NEEDS);
    return residual_fits(sym, sym, b->n, why, cap);
}

static int variant_covers(const ml_board *b, char *why, size_t cap, int variant)
{
    if (!chase_covers(b, why, cap))
        return 0;
    if (variant == 'p' && !(b->locked || b->holes))
        return why_fmt(why, cap, ML_R_PREFIX_NEEDS);
    if (variant != 's')
        return 1;
    return rowsolve_covers(b, why, cap);
}

static int light_covers(const ml_board *b, char *w, size_t c) { return variant_covers(b, w, c, 'l'); }
static int prefix_covers(const ml_board *b, char *w, size_t c) { return variant_covers(b, w, c, 'p'); }
static int row_covers(const ml_board *b, char *w, size_t c) { return variant_covers(b, w, c, 'r'); }
static int rowsolve_variant_covers(const ml_board *b, char *w, size_t c)
{
    return variant_covers(b, w, c, 's');
}

/* ------------------------------------------------------------------ algebraic */
#define MAX_PRIME 251

static int grid_reason(const ml_board *b, char *why, size_t cap)
{
    if (!is_grid(b))
        return why_fmt(why, cap, ML_R_GRID_ONLY);
    return 1;
}

/* The algebraic engines' reasons below read the modulus q apart from the board: q is
 * b->n for the board itself, a prime of n for lifted's parts (ml__field_engine). */
static int uniform_prime_grid(const ml_board *b, int q, char *why, size_t cap)
{
    if (!is_grid(b))
        return why_fmt(why, cap, ML_R_NEEDS_GRID);
    if (!is_prime(q) || q > MAX_PRIME)
        return why_fmt(why, cap, ML_R_PRIME_N, MAX_PRIME, q);
    if (b->mixed)
        return why_fmt(why, cap, ML_R_ONE_PATTERN);
    if (b->locked || b->holes)
        return why_fmt(why, cap, ML_R_NO_LOCKS_HOLES);
    return 1;
}

static int in_row_offsets(long dr, long dc)
{
    return (dr == 0 && (dc == 0 || dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1));
}

/* algebraic_reason past uniform_prime_grid_reason, for a uniform pattern mod n */
static int algebraic_core(const ml__pattern *p, int n, int64_t rows, int64_t cols, int wrap,
                          char *why, size_t cap)
{
    long dr = 0, dc = 0;
    if (least_outside(p, in_row_offsets, &dr, &dc))
        return why_fmt(why, cap, ML_R_ROW_OFFSETS, (long long)dr, (long long)dc);
    int down = cnt(p, -1, 0) % n != 0 && (rows >= 3 || !wrap);
    int across = cnt(p, 0, -1) % n != 0 && (cols >= 3 || !wrap);
    if (!(down || across))
        return why_fmt(why, cap, ML_R_CROSS_UNIT,
                       wrap ? ", and a torus at least 3 tiles along that direction" : "");
    return 1;
}

static int algebraic_reason(const ml_board *b, int q, char *why, size_t cap)
{
    if (!uniform_prime_grid(b, q, why, cap))
        return 0;
    return algebraic_core(uniform(b), q, b->rows, b->cols, b->wrap, why, cap);
}

static int cross_reason(const ml_board *b, int q, char *why, size_t cap)
{
    if (is_grid(b) && b->wrap)
        return why_fmt(why, cap, ML_R_CROSS_NOT_TORI);
    return grid_reason(b, why, cap) && algebraic_reason(b, q, why, cap);
}

static int torus_reason(const ml_board *b, int q, char *why, size_t cap)
{
    if (is_grid(b) && !b->wrap)
        return why_fmt(why, cap, ML_R_TORUS_ONLY);
    return grid_reason(b, why, cap) && algebraic_reason(b, q, why, cap);
}

static int cross_covers(const ml_board *b, char *why, size_t cap)
{
    return cross_reason(b, b->n, why, cap);
}

static int torus_covers(const ml_board *b, char *why, size_t cap)
{
    return torus_reason(b, b->n, why, cap);
}

/* tori of any uniform pattern, prime q, with a chase orientation (engines/torus2.c) */
static int torus2_reason(const ml_board *b, int q, char *why, size_t cap)
{
    if (is_grid(b) && !b->wrap)
        return why_fmt(why, cap, ML_R_TORUS2_ONLY);
    if (!uniform_prime_grid(b, q, why, cap))
        return 0;
    ml__t2_orient o;
    if (ml__torus2_orient_mod(b, (unsigned)q, &o) <= 0)   /* out of memory: not taken */
        return why_fmt(why, cap, ML_R_TORUS2_LEAD, ML_TORUS2_MAX_SHEAR, ML_TORUS2_MAX_SPAN,
                       ML_TORUS2_MAX_WORK_LOG2);
    return 1;
}

static int torus2_covers(const ml_board *b, char *why, size_t cap)
{
    return torus2_reason(b, b->n, why, cap);
}

static int in_box(long dr, long dc) { return dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1; }

/* _orientation: whether either orientation has left-right symmetric counts and an
 * invertible C_1 */
static int sym_orientation(const ml_board *b, int q)
{
    const ml__pattern *p = uniform(b);
    for (int t = 0; t < 2; t++) {
        /* cc(dr, dc) = c(dc, dr) on the transposed board */
#define CC(r, c) (t ? cnt(p, (c), (r)) : cnt(p, (r), (c)))
        int symmetric = 1;
        for (long dr = -1; dr <= 1; dr++)
            symmetric &= CC(dr, 1) % q == CC(dr, -1) % q;
        if (!symmetric)
            continue;
        ml_symchase P;
        memset(&P, 0, sizeof P);
        P.h = 1;
        P.w = (size_t)(t ? b->rows : b->cols);
        P.p = (unsigned)q;
        P.a[2] = (unsigned)(CC(-1, 0) % q);
        P.b[2] = (unsigned)(CC(-1, 1) % q);
#undef CC
        if (ml_symchase_invertible(&P))
            return 1;
    }
    return 0;
}

static int sym_reason(const ml_board *b, int q, char *why, size_t cap)
{
    if (!uniform_prime_grid(b, q, why, cap))
        return 0;
    if (b->wrap)
        return why_fmt(why, cap, ML_R_SYM_TORI);
    long dr = 0, dc = 0;
    if (least_outside(uniform(b), in_box, &dr, &dc))
        return why_fmt(why, cap, ML_R_SYM_BOX, (long long)dr, (long long)dc);
    if (!sym_orientation(b, q))
        return why_fmt(why, cap, ML_R_SYM_ORIENTATION);
    return 1;
}

static int sym_field_reason(const ml_board *b, int q, char *why, size_t cap)
{
    char inner[ML_WHY_MAX];
    if (grid_reason(b, inner, sizeof inner) && sym_reason(b, q, inner, sizeof inner))
        return 1;
    return why_fmt(why, cap, ML_R_SYM_PREFIX, inner);
}

static int sym_covers(const ml_board *b, char *why, size_t cap)
{
    return sym_field_reason(b, b->n, why, cap);
}

/* algebraic-sym-odd over GF(q): sym_reason's board checks, then ml__sym_odd_orientation */
static int sym_odd_reason(const ml_board *b, int q, char *why, size_t cap)
{
    char inner[ML_WHY_MAX];
    int ok = grid_reason(b, inner, sizeof inner) && uniform_prime_grid(b, q, inner, sizeof inner);
    long dr = 0, dc = 0;
    if (ok && b->wrap)
        ok = why_fmt(inner, sizeof inner, ML_R_SYM_TORI);
    if (ok && least_outside(uniform(b), in_box, &dr, &dc))
        ok = why_fmt(inner, sizeof inner, ML_R_SYM_BOX, (long long)dr, (long long)dc);
    if (ok && ml__sym_odd_orientation(b, (unsigned)q, NULL) < 0)
        ok = why_fmt(inner, sizeof inner, ML_R_SYM_ODD_ORIENTATION);
    if (ok)
        return 1;
    return why_fmt(why, cap, ML_R_SYM_PREFIX, inner);
}

static int sym_odd_covers(const ml_board *b, char *why, size_t cap)
{
    return sym_odd_reason(b, b->n, why, cap);
}

/* The engines over GF(p) that lifted runs on each prime of n, in the order tried (the
 * registry's order: the cross family's own engines first); tori: whether the engine
 * takes tori only. The reason given when none covers is the last tried's of the
 * board's kind (the torus2 engine's on tori, the cross's otherwise). */
static const struct {
    int tori;
    int (*reason)(const ml_board *b, int q, char *why, size_t cap);
    const ml_engine_def *ops;
} FIELD_ENGINES[] = {
    {0, cross_reason, &ml__algebraic_cross_ops},
    {0, sym_field_reason, &ml__algebraic_sym_ops},
    {0, sym_odd_reason, &ml__algebraic_sym_odd_ops},
    {1, torus_reason, &ml__algebraic_torus_ops},
    {1, torus2_reason, &ml__algebraic_torus2_ops},
};

const ml_engine_def *ml__field_engine(const ml_board *b, int p, char *why, size_t cap)
{
    int tori = is_grid(b) && b->wrap;
    for (size_t i = 0; i < sizeof FIELD_ENGINES / sizeof FIELD_ENGINES[0]; i++) {
        if (FIELD_ENGINES[i].tori != tori)
            continue;
        char inner[ML_WHY_MAX];
        if (FIELD_ENGINES[i].reason(b, p, inner, sizeof inner))
            return FIELD_ENGINES[i].ops;
        if (why && (tori || FIELD_ENGINES[i].reason == cross_reason))
            snprintf(why, cap, "%s", inner);
    }
    return NULL;
}

static int lifted_covers(const ml_board *b, char *why, size_t cap)
{
    if (!grid_reason(b, why, cap))
        return 0;
    int n = b->n;
    int p[8], pk[8];
    int k = ml__primes_of(n, p, pk);
    if (k == 1 && pk[0] == p[0])
        return why_fmt(why, cap, ML_R_LIFTED_PRIME, n);
    if (b->mixed)
        return why_fmt(why, cap, ML_R_ONE_PATTERN);
    if (b->locked || b->holes)
        return why_fmt(why, cap, ML_R_NO_LOCKS_HOLES);
    if (tiles(b) > (uint64_t)ML_MAX_TILES)
        return why_fmt(why, cap, ML_R_LIFTED_TILES, (long long)ML_MAX_TILES,
                       (long long)tiles(b));
    for (int i = 0; i < k; i++) {
        char inner[ML_WHY_MAX];
        if (!ml__field_engine(b, p[i], inner, sizeof inner))
            return why_fmt(why, cap, ML_R_OVER_FACTOR, p[i], n, inner);
    }
    return 1;
}

static int tensor_covers(const ml_board *b, char *why, size_t cap)
{
    return ml__tensor_covers(b, why, cap);
}

/* ------------------------------------------------------------------ the table */
#define NATIVE ML_BACKEND_NATIVE
#define BOTH (ML_BACKEND_NATIVE | ML_BACKEND_REFERENCE)
#define PACKED (ML_Q_KERNEL_FITS | ML_Q_SOLVE_PACKED)
/* what the registry's fallback answers for the engines that do not (base.FALLBACK) */
#define FALLBACK (ML_Q_DET | ML_Q_INVERSE | ML_Q_PSEUDO_INVERSE)

const ml__own_engine ml__own_engines[] = {
    {"dense-gf2", "dense",
     "dense GF(2) elimination, bit-packed (Method of Four Russians); any board with n = 2",
     FALLBACK, NATIVE, 1, 0, dense_gf2_covers, dense_cost, &ml__dense_gf2_ops},
    {"dense-zn", "dense",
     "dense Z/n elimination (CRT, unit then valuation pivots, delayed reduction); any "
     "board with n >= 3",
     FALLBACK, NATIVE, 1, 0, dense_zn_covers, dense_cost, &ml__dense_zn_ops},
    {"chase", "chase",
     "light chasing of grid boards, the variant with the fewest symbols chosen from the "
     "plan (light, prefix, row or row-solve)",
     0, NATIVE, 1, 1, chase_covers, chase_cost, &ml__chase_choose_ops},
    {"chase-light", "chase", "the light chase, its residual matrix eliminated whole", 0, NATIVE,
     0, 0, light_covers, chase_cost, &ml__chase_light_ops},
    {"chase-prefix", "chase",
     "the light chase solving a prefix of a tall residual system (locked tiles) that leaves "
     "no kernel, else the whole system",
     0, NATIVE, 0, 0, prefix_covers, chase_cost, &ml__chase_prefix_ops},
    {"chase-row", "chase", "the row chase: online elimination, no residual matrix (many holes)",
     0, NATIVE, 0, 0, row_covers, chase_cost, &ml__chase_row_ops},
    {"chase-rowsolve", "chase",
     "the row-solve chase: patterns ending in a pair of unit taps (knight, diagonal)", 0,
     NATIVE, 0, 0, rowsolve_variant_covers, chase_cost, &ml__chase_rowsolve_ops},
    {"algebraic-cross", "algebraic",
     "one polynomial equation over GF(p)[x]: cross, vertical, horizontal patterns, prime n, "
     "no locks or holes",
     PACKED | ML_Q_DET, BOTH, 1, 0, cross_covers, cross_cost, &ml__algebraic_cross_ops},
    {"algebraic-torus", "algebraic",
     "a 2 x 2 system over GF(p)[s] / (s^w - 1): tori of the cross family, prime n", PACKED,
     BOTH, 1, 0, torus_covers, torus_cost, &ml__algebraic_torus_ops},
    {"algebraic-torus2", "algebraic",
     "a k x k system over GF(p)[s] / (s^w - 1) left by the row chase of a single-offset "
     "lead, the torus sheared to make one: tori of any pattern, prime n",
     ML_Q_KERNEL_FITS, NATIVE, 1, 0, torus2_covers, torus2_cost, &ml__algebraic_torus2_ops},
    {"algebraic-sym", "algebraic",
     "polynomial row recurrences for left-right symmetric 3 x 3 patterns (diagonal, ring), "
     "prime n, no tori",
     PACKED, BOTH, 1, 0, sym_covers, sym_cost, &ml__algebraic_sym_ops},
    {"algebraic-sym-odd", "algebraic",
     "algebraic-sym on odd widths where the next row's coefficient b P is singular "
     "(diagonal on odd x odd boards): rows split as ker P (+) im P, prime n not dividing "
     "(w + 1) / 2, no tori",
     ML_Q_KERNEL_FITS, BOTH, 1, 0, sym_odd_covers, sym_odd_cost, &ml__algebraic_sym_odd_ops},
    {"lifted", "lifted",
     "the algebraic engine over each GF(p), p | n, lifted to Z/p^k and combined by CRT: "
     "composite n",
     0, NATIVE, 1, 0, lifted_covers, lifted_cost, &ml__lifted_ops},
    {"tensor", "tensor",
     "A = R (x) C for product patterns (square, horizontal, vertical): two passes of 1-D "
     "banded chases, tori too",
     PACKED | ML_Q_DET, NATIVE, 1, 0, tensor_covers, tensor_cost, &ml__tensor_ops},
};
const size_t ml__own_engine_count = sizeof ml__own_engines / sizeof ml__own_engines[0];
