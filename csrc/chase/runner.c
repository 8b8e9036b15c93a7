/* runner.c: the symbolic chase's blocks shared among threads, and its entry points
 * (ml_chase_matrix_*, see chase.h). */
#include "chase/chase_impl.h"
#include "base/interrupt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static size_t env_size(const char *name, size_t dflt) {
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    long v = strtol(s, NULL, 10);
    return v > 0 ? (size_t)v : dflt;
}

static int run_jobs(const ml_chase *p, void *M, size_t kmax, size_t total, size_t stride,
                    size_t bw, int threads, int np) {
    /* the mirror image of a row of a prefix may lie outside it */
    const int32_t *msym = kmax == p->nres ? p->msym : NULL;
    if (threads < 1) threads = 1;
    if (threads > 16) threads = 16;
    size_t nblocks = (total + bw - 1) / bw;
    /* with a mirror symmetry only the blocks holding a symbol s <= msym[s] are run */
    size_t *list = malloc((nblocks + 1) * sizeof(size_t));
    if (!list) return 2;
    size_t nrun = 0;
    const size_t per = p->n == 2 || np ? bw * 64 : bw;    /* symbols per block */
    for (size_t b = 0; b < nblocks; b++) {
        int need = 1;
        if (msym) {
            need = 0;
            size_t s1 = (b + 1) * per < p->nsym ? (b + 1) * per : p->nsym;
            for (size_t s = b * per; s < s1 && !need; s++) need = (size_t)msym[s] >= s;
        }
        if (need) list[nrun++] = b;
    }
    if ((size_t)threads > nrun) threads = (int)nrun;
    if (threads < 1) threads = 1;
    sym_job jobs[16];
    pthread_t tid[16];
    int started[16] = {0};
    int next = 0;
    for (int i = 0; i < threads; i++) {
        jobs[i].p = p;
        jobs[i].M = M;
        jobs[i].stride = stride;
        jobs[i].total = total;
        jobs[i].bw = bw;
        jobs[i].np = np;
        jobs[i].kmax = kmax;
        jobs[i].nblocks = nrun;
        jobs[i].list = list;
        jobs[i].next = &next;
        jobs[i].status = 0;
    }
    for (int i = 1; i < threads; i++)
        started[i] = ml_thread_create(&tid[i], ml_chase_sym_worker, &jobs[i]) == 0;
    ml_chase_sym_worker(&jobs[0]);
    int st = jobs[0].status;
    for (int i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        if (jobs[i].status) st = jobs[i].status;
    }
    /* the skipped blocks from their mirror images */
    if (!st && msym) {
        size_t li = 0;
        for (size_t b = 0; b < nblocks; b++) {
            if (li < nrun && list[li] == b) { li++; continue; }
            size_t s1 = (b + 1) * per < p->nsym ? (b + 1) * per : p->nsym;
            for (size_t k = 0; k < p->nres; k++) {
                size_t k2 = (size_t)p->mres[k];
                if (p->n == 2) {
                    uint64_t *row = (uint64_t *)M + k * stride;
                    const uint64_t *src = (const uint64_t *)M + k2 * stride;
                    for (size_t s = b * per; s < s1; s++) {
                        size_t q = (size_t)msym[s];
                        uint64_t bit = (src[q / 64] >> (q % 64)) & 1u;
                        row[s / 64] = (row[s / 64] & ~((uint64_t)1 << (s % 64))) | (bit << (s % 64));
                    }
                } else {
                    uint8_t *row = (uint8_t *)M + k * stride;
                    const uint8_t *src = (const uint8_t *)M + k2 * stride;
                    for (size_t s = b * per; s < s1; s++) row[s] = src[msym[s]];
                }
            }
        }
    }
    free(list);
    return st;
}

/* Default blocks (measured on 2-core AVX2 machine, cross boards): GF(2) 8 words (512
 * symbols, two AVX2 registers a tap: 10000^2 symbolic chase 1.55 s vs 1.65 s with 4
 * words and 1.9 s with 16), Z/n 256 symbols (3000^2 over Z/3: 0.56 s vs 1.13 s with
 * 64, 0.64 s with 512); MODLIGHTS_CHASE_BW / MODLIGHTS_CHASE_BZ override them. */
int ml_chase_matrix_gf2_rows(const ml_chase *p, uint64_t *M, size_t rows, int threads,
                             size_t block) {
    size_t nw = (p->nsym + 63) / 64;
    if (rows > p->nres) rows = p->nres;
    if (nw == 0 || rows == 0) return 0;
    if (!block) block = env_size("MODLIGHTS_CHASE_BW", 8);
    return run_jobs(p, M, rows, nw, nw, block, threads, 0);
}

int ml_chase_matrix_zn_mode(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                            size_t block, int packed) {
    if (rows > p->nres) rows = p->nres;
    if (p->nsym == 0 || rows == 0) return 0;
    const int np = packed ? packed_planes(p->n) : 0;
    if (np) {
        const size_t bw = block ? (block + 63) / 64 : env_size("MODLIGHTS_CHASE_BP", 8);
        return run_jobs(p, M, rows, (p->nsym + 63) / 64, p->nsym, bw, threads, np);
    }
    if (!block) block = env_size("MODLIGHTS_CHASE_BZ", 256);
    return run_jobs(p, M, rows, p->nsym, p->nsym, block, threads, 0);
}

int ml_chase_matrix_zn_rows(const ml_chase *p, uint8_t *M, size_t rows, int threads,
                            size_t block) {
    return ml_chase_matrix_zn_mode(p, M, rows, threads, block, 1);
}

int ml_chase_matrix_gf2(const ml_chase *p, uint64_t *M, int threads, size_t block) {
    return ml_chase_matrix_gf2_rows(p, M, p->nres, threads, block);
}

int ml_chase_matrix_zn(const ml_chase *p, uint8_t *M, int threads, size_t block) {
    return ml_chase_matrix_zn_rows(p, M, p->nres, threads, block);
}

