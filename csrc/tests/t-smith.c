/* t-smith.c: the small Smith forms over Z/p^e (engines/smith.c) against obvious methods
 * on random matrices of every shape (0..12 square and rectangular, some 64 x 64), of full
 * and low rank and with entries divisible by powers of p:
 *   U A V = D with D = diag(p^v_0, ...) and v non-decreasing (each invariant divides the
 *   next), U and V invertible (rank mod p), det A against a Laplace expansion, kernel
 *   generators in the kernel with their exact orders and their count against a brute
 *   force count of ker A, solve against brute force solvability, A A^-1 = I, A P A = A.
 *
 * ml-test-sources: engines/smith.c */
#define ML_T_SEED 0x5317F0A3ull
#include "t-util.h"

#include "engines/smith.h"
#include "include/modlights.h"

#include <stdlib.h>
#include <string.h>

static uint64_t Q;

/* n + 1 entries (so n = 0 allocates too). */
static uint64_t *vec(int n) { return malloc(sizeof(uint64_t) * (size_t)(n + 1)); }

static uint64_t mm(uint64_t a, uint64_t b) { return (uint64_t)((unsigned __int128)a * b % Q); }

/* C = A B mod Q (A n x l, B l x k). */
static void matmul(const uint64_t *A, const uint64_t *B, uint64_t *C, int n, int l, int k)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++) {
            uint64_t x = 0;
            for (int t = 0; t < l; t++) x = (x + mm(A[i * l + t], B[t * k + j])) % Q;
            C[i * k + j] = x;
        }
}

/* rank mod p of an n x n matrix (entries mod Q): n when invertible mod Q. */
static size_t rank_mod_p(const uint64_t *A, int n, int k, unsigned p)
{
    uint8_t *M = malloc((size_t)(n * k) + 1);
    for (int i = 0; i < n * k; i++) M[i] = (uint8_t)(A[i] % p);
    size_t r = rank_p(M, (size_t)n, (size_t)k, p);
    free(M);
    return r;
}

/* det mod Q by Laplace expansion along the first row (n <= 7). */
static uint64_t det_laplace(const uint64_t *A, int n)
{
    if (n == 0) return 1 % Q;
    if (n == 1) return A[0] % Q;
    uint64_t *S = malloc(sizeof *S * (size_t)((n - 1) * (n - 1)));
    uint64_t d = 0;
    for (int c = 0; c < n; c++) {
        for (int i = 1; i < n; i++)
            for (int j = 0, jj = 0; j < n; j++)
                if (j != c) S[(i - 1) * (n - 1) + jj++] = A[i * n + j];
        uint64_t t = mm(A[c], det_laplace(S, n - 1));
        d = c & 1 ? (d + Q - t) % Q : (d + t) % Q;
    }
    free(S);
    return d;
}

/* A random m x r matrix mod Q: uniform, or of low rank, or times p^k in some rows. */
static void random_matrix(uint64_t *A, int m, int r, uint64_t p, int kind)
{
    if (kind == 0) {
        for (int i = 0; i < m * r; i++) A[i] = rnd() % Q;
    } else if (kind == 1) { /* B C with an inner size below both */
        int l = (int)rnd_range(0, (m < r ? m : r));
        uint64_t *B = vec(m * l), *C = vec(l * r);
        for (int i = 0; i < m * l; i++) B[i] = rnd() % Q;
        for (int i = 0; i < l * r; i++) C[i] = rnd() % Q;
        matmul(B, C, A, m, l, r);
        free(B);
        free(C);
    } else { /* rows times powers of p, small entries */
        for (int i = 0; i < m; i++) {
            uint64_t f = 1;
            for (int t = (int)rnd_range(0, 3); t > 0; t--) f = mm(f, p);
            for (int j = 0; j < r; j++) A[i * r + j] = mm(rnd() % (kind == 2 ? Q : 2), f);
        }
    }
}

static int checked_brute = 0;

static void check_one(int m, int r, uint64_t p, int e, int kind)
{
    uint64_t *A = vec(m * r);
    random_matrix(A, m, r, p, kind);
    ml__smith s;
    int rc = ml__smith_init(&s, A, m, r, p, e);
    CHECK(rc == 0, "rc=%d", rc);
    if (rc) { free(A); return; }
    int mr = m > r ? m : r;
    size_t big = (size_t)mr * mr + 1;
    uint64_t *T = malloc(sizeof *T * big), *D = malloc(sizeof *D * big);
    /* U A V = D */
    matmul(s.U, A, T, m, m, r);
    matmul(T, s.V, D, m, r, r);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < r; j++) {
            uint64_t want = 0;
            if (i == j && i < s.rank) {
                want = 1;
                for (int t = 0; t < s.v[i]; t++) want *= p;
            }
            CHECK(D[i * r + j] == want, "m=%d r=%d p=%llu e=%d (%d,%d)", m, r,
                  (unsigned long long)p, e, i, j);
        }
    for (int k = 0; k < r; k++) {
        CHECK(s.v[k] >= 0 && s.v[k] <= e);
        CHECK(k >= s.rank || s.v[k] < e);
        CHECK(k == 0 || s.v[k - 1] <= s.v[k], "divisibility at %d", k);
    }
    CHECK(s.rank <= m && s.rank <= r);
    CHECK(rank_mod_p(s.U, m, m, (unsigned)p) == (size_t)m, "U singular");
    CHECK(rank_mod_p(s.V, r, r, (unsigned)p) == (size_t)r, "V singular");
    CHECK(s.rank >= (int)rank_mod_p(A, m, r, (unsigned)p));
    /* the kernel generators: in ker A, of the order they say */
    uint64_t *G = malloc(sizeof *G * ((size_t)r * r + 1));
    int *L = malloc(sizeof *L * (size_t)(r + 1));
    int c = ml__smith_generators(&s, G, L), total = 0;
    for (int g = 0; g < c; g++) {
        CHECK(L[g] >= 1 && L[g] <= e && (g == 0 || L[g - 1] >= L[g]));
        total += L[g];
        matmul(A, G + (size_t)g * r, T, m, r, 1);
        for (int i = 0; i < m; i++) CHECK(T[i] == 0, "generator %d not in the kernel", g);
        uint64_t f = 1; /* p^(L-1) g != 0 */
        for (int t = 1; t < L[g]; t++) f *= p;
        int nz = 0;
        for (int i = 0; i < r; i++) nz |= mm(G[(size_t)g * r + i], f) != 0;
        CHECK(nz, "generator %d of a smaller order", g);
    }
    CHECK(total == ml__smith_kernel_log(&s));
    /* solve: a consistent right-hand side is solved; every answer said ok is a solution */
    int k = 3;
    uint64_t *X0 = vec(r * k), *B = vec(m * k);
    uint64_t *X = vec(r * k), *AX = vec(m * k);
    uint8_t ok[3];
    for (int i = 0; i < r * k; i++) X0[i] = rnd() % Q;
    matmul(A, X0, B, m, r, k);
    for (int i = 0; i < m; i++) B[i * k + 2] = rnd() % Q; /* column 2: random */
    CHECK(ml__smith_solve(&s, B, k, X, ok) == 0);
    CHECK(ok[0] && ok[1]);
    matmul(A, X, AX, m, r, k);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < k; j++)
            if (ok[j]) CHECK(AX[i * k + j] == B[i * k + j], "solve (%d,%d)", i, j);
    /* brute force on tiny cases: |ker A| and the solvability of column 2 */
    double cnt = 1;
    for (int i = 0; i < r; i++) cnt *= (double)Q;
    if (cnt <= 4096) {
        checked_brute++;
        uint64_t *x = calloc((size_t)r + 1, sizeof *x), kern = 0;
        int solvable = 0;
        for (;;) {
            matmul(A, x, T, m, r, 1);
            int z = 1, hit = 1;
            for (int i = 0; i < m; i++) {
                z &= T[i] == 0;
                hit &= T[i] == B[i * k + 2];
            }
            kern += z;
            solvable |= hit;
            int i = 0;
            while (i < r && ++x[i] == Q) x[i++] = 0;
            if (i == r) break;
        }
        uint64_t want = 1;
        for (int t = 0; t < ml__smith_kernel_log(&s); t++) want *= p;
        CHECK(kern == want, "|ker| %llu vs %llu", (unsigned long long)kern,
              (unsigned long long)want);
        CHECK(solvable == ok[2], "solvable %d vs %d", solvable, ok[2]);
        free(x);
    }
    /* det, inverse, pseudo-inverse */
    uint64_t d;
    if (m == r) {
        CHECK(ml__smith_det(&s, &d) == 0);
        if (m <= 7) CHECK(d == det_laplace(A, m), "det m=%d", m);
        int inv = ml__smith_inverse(&s, T);
        CHECK(inv == (rank_mod_p(A, m, m, (unsigned)p) == (size_t)m), "inverse exists");
        if (inv) {
            matmul(A, T, D, m, m, m);
            for (int i = 0; i < m * m; i++) CHECK(D[i] == (i % (m + 1) == 0), "A A^-1 = I");
        }
    } else {
        CHECK(ml__smith_det(&s, &d) == ML_EINVAL);
        CHECK(ml__smith_inverse(&s, T) == 0);
    }
    uint64_t *P = vec(r * m), *AP = vec(m * m);
    if (ml__smith_pseudo_inverse(&s, P)) {
        for (int j = 0; j < s.rank; j++) CHECK(s.v[j] == 0);
        matmul(A, P, AP, m, r, m);
        matmul(AP, A, T, m, m, r);
        for (int i = 0; i < m * r; i++) CHECK(T[i] == A[i], "A P A = A");
    } else {
        int unit = 1;
        for (int j = 0; j < s.rank; j++) unit &= s.v[j] == 0;
        CHECK(!unit);
    }
    free(P), free(AP), free(X0), free(B), free(X), free(AX), free(G), free(L), free(T), free(D);
    free(A);
    ml__smith_free(&s);
}

/* --dump: read "p e m r a00 a01 ..." sets from stdin until EOF, print for each
 * "rank v0 .. v(r-1) U... V... det|-1" on one line (tests/native/test_smith.py compares
 * them with LocalSmith's). */
static int dump(void)
{
    unsigned long long p;
    int e, m, r;
    while (scanf("%llu %d %d %d", &p, &e, &m, &r) == 4) {
        uint64_t *A = vec(m * r);
        for (int i = 0; i < m * r; i++) {
            unsigned long long x;
            if (scanf("%llu", &x) != 1) return 2;
            A[i] = x;
        }
        ml__smith s;
        if (ml__smith_init(&s, A, m, r, p, e)) return 3;
        printf("%d", s.rank);
        for (int j = 0; j < r; j++) printf(" %d", s.v[j]);
        for (int i = 0; i < m * m; i++) printf(" %llu", (unsigned long long)s.U[i]);
        for (int i = 0; i < r * r; i++) printf(" %llu", (unsigned long long)s.V[i]);
        uint64_t d = 0;
        if (ml__smith_det(&s, &d) == 0) printf(" %llu\n", (unsigned long long)d);
        else printf(" -1\n");
        ml__smith_free(&s);
        free(A);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--dump")) return dump();
    static const struct { uint64_t p; int e; } rings[] = {
        {2, 1}, {3, 1}, {5, 1}, {7, 1}, {2, 2}, {2, 3}, {3, 2},
        {2, 6}, {5, 3}, {3, 4}, {101, 1}, {2, 62},
    };
    for (size_t ri = 0; ri < sizeof rings / sizeof rings[0]; ri++) {
        uint64_t p = rings[ri].p;
        int e = rings[ri].e;
        Q = 1;
        for (int t = 0; t < e; t++) Q *= p;
        for (int it = 0; it < 120; it++) {
            int m = (int)rnd_range(0, 12), r = it % 3 ? m : (int)rnd_range(0, 12);
            if (it < 12) m = r = it % 4;
            check_one(m, r, p, e, (int)(it % 4));
        }
        check_one(64, 64, p, e, 1);
        check_one(64, 64, p, e, 2);
        check_one(40, 64, p, e, 3);
    }
    CHECK(checked_brute > 100, "brute force checks %d", checked_brute);
    /* bad arguments */
    ml__smith s;
    uint64_t a = 1;
    CHECK(ml__smith_init(&s, &a, 1, 1, 1, 1) == ML_EINVAL);
    CHECK(ml__smith_init(&s, &a, 1, 1, 2, 0) == ML_EINVAL);
    CHECK(ml__smith_init(&s, &a, 1, 1, 2, 63) == ML_EINVAL);
    CHECK(ml__smith_init(&s, &a, -1, 1, 2, 1) == ML_EINVAL);
    ml__smith_free(&s);
    return t_done();
}
