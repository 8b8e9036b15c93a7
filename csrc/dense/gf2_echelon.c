/* gf2_echelon.c: row echelon forms of GF(2) matrices (gf2.h: ml_gf2_echelonize and the
 * two algorithms behind it, plain elimination and the Method of Four Russians with its
 * blocked forward pass; ml_gf2_rank). */
#include "dense/gf2.h"
#include "dense/gf2_impl.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

/* ======================================================================== helpers */

/* n <= 64 bits of row starting at column c (row has `stride` words). */
static inline uint64_t read_bits(const uint64_t *row, size_t c, int n, size_t stride)
{
    size_t w = c >> 6;
    int s = (int)(c & 63);
    uint64_t v = row[w] >> s;
    if (s && s + n > 64 && w + 1 < stride) v |= row[w + 1] << (64 - s);
    return n >= 64 ? v : v & (((uint64_t)1 << n) - 1);
}

/* Swap words [lo, hi) of rows a and b. */
static void swap_words(ml_gf2_t *M, size_t a, size_t b, size_t lo, size_t hi)
{
    if (a == b) return;
    uint64_t *x = ml_gf2_row(M, a), *y = ml_gf2_row(M, b);
    for (size_t w = lo; w < hi; w++) {
        uint64_t t = x[w];
        x[w] = y[w];
        y[w] = t;
    }
}

static void swap_rows(ml_gf2_t *M, size_t a, size_t b) { swap_words(M, a, b, 0, M->width); }

/* ======================================================================== elimination */

size_t ml_gf2_echelonize_naive(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
{
    ml_gf2_kernels_t K = ml_gf2__kernels();
    size_t m = M->nrows, W = M->width, r = 0;
    if (pivot_cols > M->ncols) pivot_cols = M->ncols;
    for (size_t c = 0; c < pivot_cols && r < m; c++) {
        if ((c & 63) == 0 && ml_interrupt_poll()) break;     /* Ctrl-C: a partial form */
        size_t w0 = c >> 6, i;
        uint64_t bit = (uint64_t)1 << (c & 63);
        for (i = r; i < m; i++)
            if (ml_gf2_row(M, i)[w0] & bit) break;
        if (i == m) continue;
        swap_rows(M, i, r);
        const uint64_t *p = ml_gf2_row(M, r) + w0;
        for (i = full ? 0 : r + 1; i < m; i++) {
            uint64_t *row = ml_gf2_row(M, i);
            if (i != r && (row[w0] & bit)) K.xor1(row + w0, p, W - w0);
        }
        if (piv) piv[r] = c;
        r++;
    }
    return r;
}

/* Row operations of the forward elimination of one panel, recorded so that they can be
 * replayed on the columns right of the panel strip by strip (see
 * ml_gf2_echelonize_m4ri): XOR (row a ^= row b), SWAP (rows a, b), PASS (clear the kb
 * pivot columns of the rows[off..off+nr) with pivot rows a.., k = 0: plain XORs, else
 * tables of k bits). */
enum { LOG_XOR, LOG_SWAP, LOG_PASS };
typedef struct { int kind, kb, k; size_t a, b, nr, off; } logop_t;
typedef struct {
    logop_t *ops;
    size_t nops, cap;
    size_t *rows;      /* the PASS entries' rows and bits, `used` of `rcap` */
    uint64_t *idx;
    size_t used, rcap;
    int oom;
} oplog_t;

static void log_op(oplog_t *L, int kind, size_t a, size_t b)
{
    if (!L || L->oom) return;
    if (L->nops == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 256;
        logop_t *p = realloc(L->ops, cap * sizeof *p);
        if (!p) { L->oom = 1; return; }
        L->ops = p;
        L->cap = cap;
    }
    logop_t *o = &L->ops[L->nops++];
    o->kind = kind;
    o->a = a;
    o->b = b;
    o->kb = o->k = 0;
    o->nr = o->off = 0;
}

/* Room for n more rows / bits in L; returns 0 when out of memory. */
static int log_reserve(oplog_t *L, size_t n)
{
    if (L->used + n <= L->rcap) return 1;
    size_t cap = L->rcap ? 2 * L->rcap : 1024;
    while (cap < L->used + n) cap *= 2;
    size_t *r = realloc(L->rows, cap * sizeof *r);
    if (!r) return 0;
    L->rows = r;
    uint64_t *x = realloc(L->idx, cap * sizeof *x);
    if (!x) return 0;
    L->idx = x;
    L->rcap = cap;
    return 1;
}

/* Find up to kmax pivots at consecutive columns c, c+1, ... among rows r.. and bring
 * them to rows r, r+1, ..., reduced among themselves (their bits at those columns
 * form an identity). Stops at the first column without a pivot. Returns how many.
 * Row operations touch words [c / 64, wend) and are recorded in L (if not NULL). */
static int gauss_block(ml_gf2_t *M, size_t r, size_t c, int kmax, size_t wend, oplog_t *L,
                       ml_gf2_kernels_t K)
{
    size_t m = M->nrows, S = M->stride, w0 = c >> 6;
    int kb = 0;
    size_t start = r;
    for (int j = 0; j < kmax; j++) {
        size_t col = c + (size_t)j, found = m;
        for (size_t i = start; i < m; i++) {
            uint64_t *row = ml_gf2_row(M, i);
            if (kb) {
                uint64_t bits = read_bits(row, c, kb, S);
                for (; bits; bits &= bits - 1) {
                    size_t src = r + (size_t)ctz64(bits);
                    K.xor1(row + w0, ml_gf2_row(M, src) + w0, wend - w0);
                    log_op(L, LOG_XOR, i, src);
                }
            }
            if ((row[col >> 6] >> (col & 63)) & 1) { found = i; break; }
        }
        if (found == m) break;
        swap_words(M, found, r + (size_t)kb, w0, wend);
        if (found != r + (size_t)kb) log_op(L, LOG_SWAP, found, r + (size_t)kb);
        const uint64_t *p = ml_gf2_row(M, r + (size_t)kb);
        for (int t = 0; t < kb; t++) {
            uint64_t *q = ml_gf2_row(M, r + (size_t)t);
            if ((q[col >> 6] >> (col & 63)) & 1) {
                K.xor1(q + w0, p + w0, wend - w0);
                log_op(L, LOG_XOR, r + (size_t)t, r + (size_t)kb);
            }
        }
        kb++;
        start = r + (size_t)kb;
    }
    return kb;
}

typedef struct {
    int oom;           /* set when a table could not be allocated */
    uint64_t *tab;     /* 8 * 256 * cw words, allocated on first use */
    size_t cw;         /* words per table row: min(width, ML_CHUNK) */
    size_t *rows;      /* nrows */
    uint64_t *idx;     /* nrows */
} workspace_t;

/* Plain XORs (0) or the table size k for clearing kb pivot columns from nr rows with
 * these bits: the cheaper by counting row-segment XORs. */
static int choose_k(int kb, const uint64_t *idx, size_t nr)
{
    size_t plain = 0;
    for (size_t t = 0; t < nr; t++) plain += (size_t)__builtin_popcountll(idx[t]);
    int best_k = 0;
    size_t best = plain;
    for (int k = (kb + 7) / 8 > 2 ? (kb + 7) / 8 : 2; k <= 8; k++) {   /* <= 8 tables */
        size_t ntab = (size_t)((kb + k - 1) / k);
        size_t cost = ntab * ((size_t)1 << k) + nr * ntab + nr;   /* + nr: loads */
        if (cost < best) { best = cost; best_k = k; }
    }
    return best_k;
}

/* Words [wa, wb) of the listed rows (idx: their bits at the kb pivot columns) ^= the
 * combination of pivot rows r..r+kb-1 given by idx: plain XORs (k = 0) or Four
 * Russians tables of k bits, built per chunk of ws->cw words. */
static void apply_range(ml_gf2_t *M, size_t r, int kb, int k, const size_t *rows,
                        const uint64_t *idx, size_t nr, size_t wa, size_t wb,
                        workspace_t *ws, ml_gf2_kernels_t K)
{
    if (nr == 0 || wa >= wb) return;
    if (k == 0) {
        for (size_t t = 0; t < nr; t++) {
            uint64_t *row = ml_gf2_row(M, rows[t]) + wa;
            for (uint64_t b = idx[t]; b; b &= b - 1)
                K.xor1(row, ml_gf2_row(M, r + ctz64(b)) + wa, wb - wa);
        }
        return;
    }
    int ntab = (kb + k - 1) / k;
    const uint64_t *src[8];
    if (!ws->tab) {    /* allocated on first use */
        ws->tab = ml_gf2__zalloc(8 * 256 * ws->cw);
        if (!ws->tab) { ws->oom = 1; return; }
    }
    uint64_t *tab = ws->tab;
    size_t cw = ws->cw;
    for (size_t c0 = wa; c0 < wb; c0 += cw) {
        size_t n = wb - c0 < cw ? wb - c0 : cw;
        /* table g, entry v: tab + (g * 256 + v) * ts, so short chunks stay dense
         * (entries on 64-byte boundaries: unaligned ones measured 30% slower) */
        size_t ts = (n + 7) & ~(size_t)7;
        if (ts > cw) ts = n;
        for (int g = 0; g < ntab; g++) {
            uint64_t *T = tab + (size_t)g * 256 * ts;
            int kg = kb - g * k < k ? kb - g * k : k;
            memset(T, 0, n * 8);
            for (unsigned v = 1; v < (1u << kg); v++) {
                uint64_t *dst = T + v * ts;
                const uint64_t *prev = T + (v & (v - 1)) * ts;
                const uint64_t *prow = ml_gf2_row(M, r + (size_t)(g * k) + ctz64(v)) + c0;
                for (size_t t = 0; t < n; t++) dst[t] = prev[t] ^ prow[t];
            }
        }
        if (n <= 16) {     /* short chunks (strips): one call for all the rows */
            K.tabrows(M->data + c0, M->stride, rows, idx, nr, tab, k, ntab, n, ts);
            continue;
        }
        uint64_t mask = ((uint64_t)1 << k) - 1;
        for (size_t t = 0; t < nr; t++) {
            uint64_t x = idx[t];
            int ns = 0;
            for (int g = 0; g < ntab; g++) {
                uint64_t v = (x >> (g * k)) & mask;
                if (v) src[ns++] = tab + ((size_t)g * 256 + v) * ts;
            }
            if (ns) K.xorn(ml_gf2_row(M, rows[t]) + c0, src, ns, n);
        }
    }
}

/* Clear the kb pivot columns c.. of the listed rows, all the way to the right. */
static void apply_block(ml_gf2_t *M, size_t r, size_t c, int kb, const size_t *rows,
                        const uint64_t *idx, size_t nr, workspace_t *ws, ml_gf2_kernels_t K)
{
    if (nr == 0) return;
    apply_range(M, r, kb, choose_k(kb, idx, nr), rows, idx, nr, c >> 6, M->width, ws, K);
}

/* Replay the panel's log on words [wa, wb), `sw` words at a time, so that each strip
 * stays in cache through all the panel's passes. */
static void replay(ml_gf2_t *M, const oplog_t *L, size_t wa, size_t wb, size_t sw,
                   workspace_t *ws, ml_gf2_kernels_t K)
{
    int passes = 0;    /* only row XORs and swaps: one strip, fewer calls */
    for (size_t t = 0; t < L->nops && !passes; t++) passes = L->ops[t].kind == LOG_PASS;
    if (!passes) sw = wb - wa;
    for (size_t s0 = wa; s0 < wb; s0 += sw) {
        size_t n = wb - s0 < sw ? wb - s0 : sw;
        for (size_t t = 0; t < L->nops; t++) {
            const logop_t *o = &L->ops[t];
            if (o->kind == LOG_XOR)
                K.xor1(ml_gf2_row(M, o->a) + s0, ml_gf2_row(M, o->b) + s0, n);
            else if (o->kind == LOG_SWAP)
                swap_words(M, o->a, o->b, s0, s0 + n);
            else {
                apply_range(M, o->a, o->kb, o->k, L->rows + o->off, L->idx + o->off, o->nr,
                            s0, s0 + n, ws, K);
                if (ws->oom) return;
            }
        }
    }
}

/* Back substitution of a forward echelon form (rows 0..rank-1, pivots piv[]) to the
 * reduced form, block by block from the bottom: a block is up to 64 consecutive pivot
 * rows whose pivot columns span at most 64 columns; it is first reduced within
 * itself, then cleared from the rows above with Four Russians tables. Rows above only
 * take part where they have bits at the block's pivot columns, so banded matrices
 * stay cheap. */
static void back_substitute(ml_gf2_t *M, size_t rank, const size_t *piv, workspace_t *ws,
                            ml_gf2_kernels_t K)
{
    size_t W = M->width, S = M->stride;
    signed char slot[64];
    size_t e = rank;
    while (e > 0) {
        if (ml_interrupt_poll()) return;     /* Ctrl-C: the caller drops the result */
        size_t s = e - 1;
        while (s > 0 && e - (s - 1) <= 64 && piv[e - 1] - piv[s - 1] < 64) s--;
        int kb = (int)(e - s);
        size_t c = piv[s];
        int span = (int)(piv[e - 1] - c + 1);
        /* within the block: clear each pivot column from the block rows above it */
        for (size_t t = e - 1; t > s; t--) {
            size_t pc = piv[t], w0 = pc >> 6;
            const uint64_t *p = ml_gf2_row(M, t);
            for (size_t q = s; q < t; q++) {
                uint64_t *row = ml_gf2_row(M, q);
                if ((row[w0] >> (pc & 63)) & 1) K.xor1(row + w0, p + w0, W - w0);
            }
        }
        /* the pivot columns as a mask over the window [c, c + span) */
        uint64_t mask = 0;
        for (int t = 0; t < 64; t++) slot[t] = -1;
        for (int t = 0; t < kb; t++) {
            int off = (int)(piv[s + (size_t)t] - c);
            mask |= (uint64_t)1 << off;
            slot[off] = (signed char)t;
        }
        int contiguous = span == kb;
        size_t nr = 0;
        for (size_t i = 0; i < s; i++) {
            uint64_t b = read_bits(ml_gf2_row(M, i), c, span, S) & mask;
            if (!b) continue;
            if (!contiguous) {
                uint64_t x = 0;
                for (; b; b &= b - 1) x |= (uint64_t)1 << slot[ctz64(b)];
                b = x;
            }
            ws->rows[nr] = i;
            ws->idx[nr] = b;
            nr++;
        }
        apply_block(M, s, c, kb, ws->rows, ws->idx, nr, ws, K);
        if (ws->oom) return;
        e = s;
    }
}

/* Panels (words) and strips (words) of the blocked forward elimination, used from
 * ML_BLOCK_MIN_BYTES of matrix on. Measured (AVX2, dense random N x N, CPU-time medians,
 * interleaved with M4RI's mzd_echelonize): N = 8192 from 0.66 to 0.44-0.47 of M4RI's
 * time; N = 4096 even (0.60-0.64); N = 2048 (512 KiB, fits L2) slower blocked, hence
 * the 2 MiB threshold. Panel 16 or strips of 8 words were no faster. Passes clearing
 * fewer than ML_DENSE_ROWS rows with tables (or none) are not deferred: on the 64 x 64
 * and 90 x 90 cross boards (factor of [A | I], 4 and 16 MiB) deferring every pass
 * cost 40%; with the threshold, 10%; and a panel after one without such a pass is not
 * blocked at all (bookkeeping only: the passes are still counted). */
#ifndef ML_PANEL
#define ML_PANEL 8
#endif
#ifndef ML_STRIP
#define ML_STRIP 16
#endif
#ifndef ML_DENSE_ROWS
#define ML_DENSE_ROWS 512
#endif
#ifndef ML_BLOCK_MIN_BYTES
#define ML_BLOCK_MIN_BYTES ((size_t)2 << 20)
#endif

size_t ml_gf2_echelonize_blocked(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv,
                                 size_t panel, size_t strip, size_t dense_rows)
{
    ml_gf2_kernels_t K = ml_gf2__kernels();
    size_t m = M->nrows, S = M->stride, W = M->width, r = 0, c = 0;
    if (pivot_cols > M->ncols) pivot_cols = M->ncols;
    workspace_t ws;
    oplog_t log;
    memset(&log, 0, sizeof log);
    size_t *pv = piv;
    ws.oom = 0;
    ws.tab = NULL;
    ws.cw = M->width < ML_CHUNK ? M->width : ML_CHUNK;
    if (ws.cw == 0) ws.cw = 1;
    if (strip > ws.cw) strip = ws.cw;
    if (strip == 0) panel = 0;
    ws.rows = malloc((m ? m : 1) * sizeof(size_t));
    ws.idx = malloc((m ? m : 1) * sizeof(uint64_t));
    if (!pv) pv = malloc((m ? m : 1) * sizeof(size_t));
    if (!ws.rows || !ws.idx || !pv) {
        free(ws.tab); free(ws.rows); free(ws.idx);
        if (pv != piv) free(pv);
        return (size_t)-1;
    }
    /* forward: clear below the pivots only. With panel > 0, the columns are taken a
     * panel (up to 64 * panel pivot columns) at a time: the passes run on the panel's
     * words only and are recorded, then replayed on the words right of the panel strip
     * by strip (strip words), so the matrix is streamed once per panel, not per pass. */
    int stopped = 0;   /* interrupted (interrupt.h): rank so far, no reduced form */
    int want = 1;   /* block this panel: the previous one had a dense pass (or first) */
    while (c < pivot_cols && r < m) {
        size_t cend = pivot_cols, wend = W;
        oplog_t *L = NULL;
        int dense = 0;
        if (panel) {
            if (cend - c > 64 * panel) cend = c + 64 * panel;
            wend = (cend + 63) >> 6;
            if (want && wend < W) {
                L = &log;
                log.nops = log.used = 0;
            } else {
                wend = W;
            }
        }
        while (c < cend && r < m) {
            if (ml_interrupt_poll()) { stopped = 1; break; }     /* Ctrl-C */
            size_t kmax = 64;
            if (kmax > cend - c) kmax = cend - c;
            if (kmax > m - r) kmax = m - r;
            int kb = gauss_block(M, r, c, (int)kmax, wend, L, K);
            if (kb == 0) { c++; continue; }
            size_t nr = 0, *rows = ws.rows;
            uint64_t *idx = ws.idx;
            if (L) {
                if (!log_reserve(L, m - r - (size_t)kb)) { log.oom = 1; break; }
                rows = L->rows + L->used;
                idx = L->idx + L->used;
            }
            for (size_t i = r + (size_t)kb; i < m; i++) {
                uint64_t b = read_bits(ml_gf2_row(M, i), c, kb, S);
                if (b) { rows[nr] = i; idx[nr] = b; nr++; }
            }
            int k = choose_k(kb, idx, nr);
            dense |= k > 0 && nr >= dense_rows;
            if (L && (k == 0 || nr < dense_rows)) {
                /* a light pass (banded matrices): deferring it would only cost calls
                 * per strip; bring the columns right of the panel up to date and apply
                 * it across the whole width */
                if (log.nops) replay(M, L, wend, W, strip, &ws, K);
                if (ws.oom) break;
                apply_range(M, r, kb, k, rows, idx, nr, c >> 6, W, &ws, K);
                log.nops = log.used = 0;
                nr = 0;
            } else {
                apply_range(M, r, kb, k, rows, idx, nr, c >> 6, wend, &ws, K);
            }
            if (ws.oom) break;
            if (L && nr) {
                log_op(L, LOG_PASS, r, 0);
                if (!log.oom) {
                    logop_t *o = &L->ops[L->nops - 1];
                    o->kb = kb;
                    o->k = k;
                    o->nr = nr;
                    o->off = L->used;
                }
                L->used += nr;
            }
            for (int t = 0; t < kb; t++) pv[r + (size_t)t] = c + (size_t)t;
            r += (size_t)kb;
            c += (size_t)kb;
        }
        if (ws.oom || log.oom) break;
        if (L && log.nops) replay(M, L, wend, W, strip, &ws, K);
        if (ws.oom || stopped) break;
        want = dense;
    }
    int oom = ws.oom || log.oom;
    if (full && !oom && !stopped) {
        back_substitute(M, r, pv, &ws, K);
        oom = ws.oom;
    }
    free(ws.tab); free(ws.rows); free(ws.idx);
    free(log.ops); free(log.rows); free(log.idx);
    if (pv != piv) free(pv);
    return oom ? (size_t)-1 : r;
}

size_t ml_gf2_echelonize_m4ri(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
{
    size_t bytes = M->nrows * M->stride * 8;
    int blocked = bytes >= ML_BLOCK_MIN_BYTES && M->width > ML_PANEL;
    return ml_gf2_echelonize_blocked(M, full, pivot_cols, piv, blocked ? ML_PANEL : 0,
                                     ML_STRIP, ML_DENSE_ROWS);
}

size_t ml_gf2_echelonize(ml_gf2_t *M, int full, size_t pivot_cols, size_t *piv)
{
    /* Measured (AVX2, [A | I] of random A): plain and M4RI are even from 32 to 64
     * rows, M4RI 2.5-5x faster from 128 rows on. */
    if (M->nrows < 64 || M->width <= 1)
        return ml_gf2_echelonize_naive(M, full, pivot_cols, piv);
    return ml_gf2_echelonize_m4ri(M, full, pivot_cols, piv);
}

size_t ml_gf2_rank(const ml_gf2_t *A)
{
    ml_gf2_t *C = ml_gf2_copy(A);
    if (!C) return (size_t)-1;
    size_t r = ml_gf2_echelonize(C, 0, C->ncols, NULL);
    ml_gf2_free(C);
    return r;
}
