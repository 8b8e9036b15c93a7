/* t-packed: csrc/structured/packed.c (np.packbits GF(2) rows worked on packed) against
 * unpacked 0/1 byte grids handled entry by entry here: load_row / store_row round trips,
 * from_bytes / to_bytes (bit 0 of each byte packed, bits past cols 0, strides kept),
 * the transpose on every SIMD path this CPU supports (ml_simd_set), and s + A x for
 * random uniform patterns (offsets of any sign, tori), with the count of tiles that differ
 * from tc; widths and heights 1..9, 63/64/65, 127/128/129 and large; the stop flag
 * (ml_interrupt_request) polled by the transpose and by apply every 64 rows.
 * Exit status 0 when every check holds (prints fails=N).
 * ml-test-sources: structured/packed.c dense/gf2.c dense/gf2_kernels.c dense/gf2_echelon.c dense/gf2_factor.c dense/gf2_residual.c dense/pack.c base/cpu.c base/interrupt.c */
#include "structured/packed.h"
#include "base/cpu.h"
#include "base/interrupt.h"
#include <stdlib.h>
#include <string.h>

#define ML_T_SEED 0x9ACCEDB175ull
#include "t-util.h"

static int bit(const uint8_t *p, size_t stride, size_t r, size_t c)
{
    return (p[r * stride + c / 8] >> (7 - c % 8)) & 1;
}

/* a random packed matrix, with random junk past column cols */
static uint8_t *rand_packed(size_t rows, size_t cols, size_t stride)
{
    uint8_t *p = malloc(rows * stride + 1);
    for (size_t i = 0; i < rows * stride + 1; i++) p[i] = (uint8_t)rnd();
    (void)cols;
    return p;
}

static void check_rows(size_t w)
{
    size_t nb = (w + 7) / 8, nw = (w + 63) / 64;
    uint8_t *src = rand_packed(1, w, nb), *back = malloc(nb + 1);
    uint64_t *words = malloc((nw + 1) * sizeof *words);
    ml_packed_load_row(src, w, words);
    int bad = 0;
    for (size_t c = 0; c < 64 * nw; c++) {
        int want = c < w ? bit(src, nb, 0, c) : 0;
        bad += (int)((words[c / 64] >> (63 - c % 64)) & 1) != want;
    }
    CHECK(bad == 0, "load_row w=%zu: %d wrong", w, bad);
    memset(back, 0x5A, nb + 1);
    ml_packed_store_row(words, w, back);
    bad = 0;
    for (size_t c = 0; c < 8 * nb; c++) bad += bit(back, nb, 0, c) != (c < w ? bit(src, nb, 0, c) : 0);
    CHECK(bad == 0, "store_row w=%zu: %d wrong", w, bad);
    CHECK(back[nb] == 0x5A, "store_row w=%zu wrote past its bytes", w);
    free(src); free(back); free(words);
}

static void check_bytes(size_t rows, size_t cols)
{
    size_t nb = (cols + 7) / 8, ss = cols + (size_t)rnd_range(0, 9), ps = nb + (size_t)rnd_range(0, 3);
    uint8_t *B = malloc(rows * ss + 1), *P = malloc(rows * ps + 1), *U = malloc(rows * ss + 1);
    for (size_t i = 0; i < rows * ss + 1; i++) B[i] = (uint8_t)rnd();   /* bit 0 read */
    memset(P, 0xC3, rows * ps + 1);
    ml_packed_from_bytes(B, ss, rows, cols, P, ps);
    int bad = 0;
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < 8 * nb; c++)
            bad += bit(P, ps, r, c) != (c < cols ? (B[r * ss + c] & 1) : 0);
        for (size_t b = nb; b < ps; b++) bad += P[r * ps + b] != 0xC3;
    }
    CHECK(bad == 0 && P[rows * ps] == 0xC3, "from_bytes %zux%zu: %d wrong", rows, cols, bad);
    for (size_t r = 0; r < rows; r++)   /* junk past column cols: ignored */
        if (cols % 8) P[r * ps + nb - 1] |= (uint8_t)(0xFF >> (cols % 8));
    memset(U, 0x5A, rows * ss + 1);
    ml_packed_to_bytes(P, ps, rows, cols, U, ss);
    bad = 0;
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols; c++) bad += U[r * ss + c] != (B[r * ss + c] & 1);
        for (size_t c = cols; c < ss; c++) bad += U[r * ss + c] != 0x5A;
    }
    CHECK(bad == 0 && U[rows * ss] == 0x5A, "to_bytes %zux%zu: %d wrong", rows, cols, bad);
    free(B); free(P); free(U);
}

static void check_transpose(size_t rows, size_t cols, int path)
{
    size_t as = (cols + 7) / 8 + (size_t)rnd_range(0, 3), ts = (rows + 7) / 8 + (size_t)rnd_range(0, 3);
    uint8_t *A = rand_packed(rows, cols, as), *T = malloc(cols * ts + 1);
    memset(T, 0xC3, cols * ts + 1);
    ml_packed_transpose(A, as, rows, cols, T, ts);
    int bad = 0;
    size_t nbt = (rows + 7) / 8;
    for (size_t j = 0; j < cols; j++) {
        for (size_t i = 0; i < 8 * nbt; i++)
            bad += bit(T, ts, j, i) != (i < rows ? bit(A, as, i, j) : 0);
        for (size_t b = nbt; b < ts; b++) bad += T[j * ts + b] != 0xC3;
    }
    CHECK(bad == 0, "transpose %zux%zu path %s: %d wrong", rows, cols, ml_simd_name(path), bad);
    free(A); free(T);
}

/* the oracle of apply: out(r, c) = s(r, c) + sum_k x(r - dr_k, c - dc_k) */
static void check_apply(size_t h, size_t w, int wrap, int withs, int inplace)
{
    size_t nb = (w + 7) / 8, noff = (size_t)rnd_range(0, 6);
    int64_t dr[6], dc[6];
    for (size_t k = 0, tries = 0; k < noff; k++) {
        if (++tries > 100) { noff = k; break; }   /* tiny tori have few distinct offsets */
        if (wrap) {
            dr[k] = rnd_range(0, (int64_t)h - 1);
            dc[k] = rnd_range(0, (int64_t)w - 1);
        } else {
            dr[k] = rnd_range(-(int64_t)h - 1, (int64_t)h + 1);
            dc[k] = rnd() % 4 ? rnd_range(-3, 3) : rnd_range(-(int64_t)w - 70, (int64_t)w + 70);
        }
        for (size_t q = 0; q < k; q++)   /* each offset once */
            if (dr[q] == dr[k] && dc[q] == dc[k]) { k--; break; }
    }
    uint8_t *x = rand_packed(h, w, nb), *s = rand_packed(h, w, nb);
    uint8_t *out = malloc(h * nb + 1), *want = calloc(h * w, 1);
    unsigned tc = (unsigned)(rnd() & 3);
    size_t wantbad = 0;
    for (size_t r = 0; r < h; r++)
        for (size_t c = 0; c < w; c++) {
            int v = withs ? bit(s, nb, r, c) : 0;
            for (size_t k = 0; k < noff; k++) {
                int64_t i = (int64_t)r - dr[k], j = (int64_t)c - dc[k];
                if (wrap) { i = (i % (int64_t)h + (int64_t)h) % (int64_t)h; j = (j % (int64_t)w + (int64_t)w) % (int64_t)w; }
                if (i < 0 || i >= (int64_t)h || j < 0 || j >= (int64_t)w) continue;
                v ^= bit(x, nb, (size_t)i, (size_t)j);
            }
            want[r * w + c] = (uint8_t)v;
            wantbad += (unsigned)v != (tc & 1);
        }
    uint8_t *dst = out;
    if (inplace) dst = s; else memset(out, 0x77, h * nb + 1);
    size_t got = ml_packed_apply(h, w, wrap, noff, dr, dc, withs ? s : NULL, tc, x, dst);
    CHECK(got == wantbad, "apply %zux%zu wrap=%d noff=%zu: count %zu want %zu", h, w, wrap, noff, got, wantbad);
    int bad = 0;
    for (size_t r = 0; r < h; r++)
        for (size_t c = 0; c < 8 * nb; c++)
            bad += bit(dst, nb, r, c) != (c < w ? want[r * w + c] : 0);
    CHECK(bad == 0, "apply %zux%zu wrap=%d noff=%zu s=%d inplace=%d: %d wrong", h, w, wrap, noff, withs, inplace, bad);
    if (!inplace) CHECK(out[h * nb] == 0x77, "apply wrote past out");
    /* out NULL: the count alone */
    size_t got2 = ml_packed_apply(h, w, wrap, noff, dr, dc, withs && !inplace ? s : NULL, tc, x, NULL);
    if (!inplace || !withs) CHECK(got2 == wantbad, "apply out=NULL count %zu want %zu", got2, wantbad);
    free(x); free(s); free(out); free(want);
}

static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65, 127, 128, 129};
#define NS (sizeof sizes / sizeof *sizes)

int main(void)
{
    for (size_t a = 0; a < NS; a++) for (int rep = 0; rep < 20; rep++) check_rows(sizes[a]);
    for (int rep = 0; rep < 200; rep++) check_rows((size_t)rnd_range(1, 1100));
    for (size_t a = 0; a < NS; a++) for (size_t b = 0; b < NS; b++) check_bytes(sizes[a] % 17, sizes[b]);
    for (int rep = 0; rep < 50; rep++) check_bytes((size_t)rnd_range(1, 40), (size_t)rnd_range(1, 3000));
    check_bytes(0, 9);
    check_bytes(3, 0);

    for (int p = 0; p < ML_SIMD_COUNT; p++) {
        if (ml_simd_set(p) != 0) continue;
        for (size_t a = 0; a < NS; a++)
            for (size_t b = 0; b < NS; b++) check_transpose(sizes[a], sizes[b], p);
        const size_t big[][2] = {{511, 513}, {513, 1025}, {1030, 70}, {3, 1500}};
        for (size_t i = 0; i < 4; i++) check_transpose(big[i][0], big[i][1], p);
        for (int rep = 0; rep < 20; rep++)
            check_transpose((size_t)rnd_range(1, 300), (size_t)rnd_range(1, 300), p);
        /* rows or cols 0: nothing written */
        uint8_t T[4] = {1, 2, 3, 4};
        ml_packed_transpose(T, 1, 0, 5, T + 2, 1);
        ml_packed_transpose(T, 1, 5, 0, T + 2, 1);
        CHECK(T[2] == 3 && T[3] == 4, "transpose of an empty matrix wrote");
    }
    ml_simd_set(ml_cpu_best());

    for (size_t a = 0; a < NS; a++)
        for (size_t b = 0; b < NS; b++)
            for (int rep = 0; rep < 4; rep++)
                check_apply(sizes[a], sizes[b], rep & 1, (rep >> 1) & 1, 0);
    for (int rep = 0; rep < 300; rep++)
        check_apply((size_t)rnd_range(1, 12), (size_t)rnd_range(1, 200), (int)(rnd() & 1),
                    (int)(rnd() & 1), (int)(rnd() & 1));
    /* width 0: no tiles, nothing read or written (was a heap overflow: acc[nw - 1], nw 0) */
    {
        int64_t dr[2] = {0, 1}, dc[2] = {0, 0};
        uint8_t x[1] = {0xFF}, o[1] = {0x77};
        CHECK(ml_packed_apply(3, 0, 0, 2, dr, dc, x, 1, x, o) == 0);
        CHECK(ml_packed_apply(3, 0, 1, 1, dr, dc, NULL, 0, x, o) == 0);
        CHECK(o[0] == 0x77, "width-0 apply wrote");
    }
    check_apply(251, 251, 1, 1, 0);
    check_apply(251, 251, 0, 1, 1);

    /* the stop flag: apply stops after row 63 (out of 200), the transpose before its
     * first tile */
    {
        size_t h = 200, w = 70, nb = 9;
        uint8_t *x = rand_packed(h, w, nb), *out = malloc(h * nb);
        int64_t dr[1] = {0}, dc[1] = {0};
        memset(out, 0xEE, h * nb);
        ml_interrupt_request();
        size_t got = ml_packed_apply(h, w, 0, 1, dr, dc, NULL, 0, x, out);
        size_t want = 0;
        for (size_t r = 0; r < 64; r++) for (size_t c = 0; c < w; c++) want += (size_t)bit(x, nb, r, c);
        CHECK(got == want, "stopped apply counted %zu want %zu (rows 0..63)", got, want);
        int bad = 0;
        for (size_t r = 0; r < 64; r++) for (size_t c = 0; c < w; c++) bad += bit(out, nb, r, c) != bit(x, nb, r, c);
        for (size_t i = 64 * nb; i < h * nb; i++) bad += out[i] != 0xEE;
        CHECK(bad == 0, "stopped apply: rows 0..63 written, the rest untouched (%d wrong)", bad);
        uint8_t *T = malloc(w * 25);
        memset(T, 0xEE, w * 25);
        ml_packed_transpose(x, nb, h, w, T, 25);
        bad = 0;
        for (size_t i = 0; i < w * 25; i++) bad += T[i] != 0xEE;
        CHECK(bad == 0, "stopped transpose wrote %d bytes", bad);
        CHECK(ml_interrupt_take() != 0);
        ml_packed_transpose(x, nb, h, w, T, 25);
        bad = 0;
        for (size_t j = 0; j < w; j++) for (size_t i = 0; i < h; i++) bad += bit(T, 25, j, i) != bit(x, nb, i, j);
        CHECK(bad == 0, "transpose after the flag was cleared: %d wrong", bad);
        free(x); free(out); free(T);
    }
    return t_done();
}
