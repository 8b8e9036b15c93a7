/* m4ri_bench: time M4RI (libm4ri) on the peers workloads of the bench runner.
 *
 * Build (bench/peers.py does this for you into a build dir outside git):
 *     cc -O2 -o m4ri_bench bench/m4ri_bench.c -lm4ri -lm
 * (Debian/Ubuntu: apt-get install libm4ri-dev)
 *
 * Matrix files (written by bench/peers.py, write_mlbm): a 16-byte header
 *     char magic[4] = "MLBM"; uint32 rows; uint32 cols; uint32 reserved (0);
 * followed by rows*cols bytes, row-major, each 0 or 1 (little-endian uint32s).
 *
 * Usage:
 *     m4ri_bench rank  A.bin REPEAT
 *         mzd_echelonize(A, 0) on a copy of A, REPEAT times.
 *         prints "rank R" and "times t1 t2 ..." and "median S"
 *     m4ri_bench solve A.bin B.bin REPEAT X.bin
 *         mzd_solve_left(A, B, 0, 1) on copies, REPEAT times (A is N x N, B is N x m);
 *         writes the solution X (N x m) to X.bin; prints "consistent 0|1", times, median
 *     m4ri_bench solve-cross K B.bin REPEAT X.bin
 *         as solve, with A the tap matrix of the K x K cross board built here
 *         (for boards too large to ship as a dense byte file).
 * Only the M4RI call is timed (copies and I/O are not).
 */
#include <m4ri/m4ri.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *msg, const char *arg) {
  fprintf(stderr, "m4ri_bench: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  exit(2);
}

static mzd_t *read_matrix(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot open", path);
  char magic[4];
  uint32_t hdr[3];
  if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "MLBM", 4) != 0) die("bad magic in", path);
  if (fread(hdr, 4, 3, f) != 3) die("short header in", path);
  rci_t rows = (rci_t)hdr[0], cols = (rci_t)hdr[1];
  mzd_t *M = mzd_init(rows, cols);
  unsigned char *buf = malloc(cols ? (size_t)cols : 1);
  if (!buf) die("out of memory", NULL);
  for (rci_t i = 0; i < rows; i++) {
    if (fread(buf, 1, (size_t)cols, f) != (size_t)cols) die("short data in", path);
    word *row = mzd_row(M, i);
    for (rci_t j = 0; j < cols; j++)
      if (buf[j] & 1) row[j / m4ri_radix] |= m4ri_one << (j % m4ri_radix);
  }
  free(buf);
  fclose(f);
  return M;
}

static void write_matrix(const char *path, const mzd_t *M) {
  FILE *f = fopen(path, "wb");
  if (!f) die("cannot write", path);
  uint32_t hdr[3] = {(uint32_t)M->nrows, (uint32_t)M->ncols, 0};
  fwrite("MLBM", 1, 4, f);
  fwrite(hdr, 4, 3, f);
  unsigned char *buf = malloc(M->ncols ? (size_t)M->ncols : 1);
  for (rci_t i = 0; i < M->nrows; i++) {
    for (rci_t j = 0; j < M->ncols; j++) buf[j] = (unsigned char)mzd_read_bit(M, i, j);
    fwrite(buf, 1, (size_t)M->ncols, f);
  }
  free(buf);
  fclose(f);
}

/* Tap matrix of the k x k cross board: cell (r,c) = row r*k+c, tap likewise. */
static mzd_t *cross_matrix(int k) {
  rci_t n = (rci_t)k * k;
  mzd_t *A = mzd_init(n, n);
  static const int d[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  for (int r = 0; r < k; r++)
    for (int c = 0; c < k; c++)
      for (int t = 0; t < 5; t++) {
        int rr = r + d[t][0], cc = c + d[t][1];
        if (rr >= 0 && rr < k && cc >= 0 && cc < k) mzd_write_bit(A, rr * k + cc, r * k + c, 1);
      }
  return A;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report_times(double *t, int rep) {
  printf("times");
  for (int i = 0; i < rep; i++) printf(" %.6f", t[i]);
  printf("\n");
  qsort(t, (size_t)rep, sizeof(double), cmp_double);
  double med = rep % 2 ? t[rep / 2] : 0.5 * (t[rep / 2 - 1] + t[rep / 2]);
  printf("median %.6f\n", med);
}

int main(int argc, char **argv) {
  if (argc < 2) die("usage: m4ri_bench rank|solve|solve-cross ...", NULL);
  if (strcmp(argv[1], "rank") == 0) {
    if (argc != 4) die("usage: m4ri_bench rank A.bin REPEAT", NULL);
    mzd_t *A = read_matrix(argv[2]);
    int rep = atoi(argv[3]);
    if (rep < 1) rep = 1;
    double *t = malloc(sizeof(double) * (size_t)rep);
    rci_t rank = -1;
    for (int i = 0; i < rep; i++) {
      mzd_t *C = mzd_copy(NULL, A);
      double t0 = now();
      rci_t r = mzd_echelonize(C, 0);
      t[i] = now() - t0;
      if (rank >= 0 && r != rank) die("rank differs between repeats", NULL);
      rank = r;
      mzd_free(C);
    }
    printf("rank %d\n", (int)rank);
    report_times(t, rep);
    mzd_free(A);
    free(t);
    return 0;
  }
  int cross = strcmp(argv[1], "solve-cross") == 0;
  if (cross || strcmp(argv[1], "solve") == 0) {
    if (argc != 6) die("usage: m4ri_bench solve A.bin|solve-cross K  B.bin REPEAT X.bin", NULL);
    mzd_t *A = cross ? cross_matrix(atoi(argv[2])) : read_matrix(argv[2]);
    mzd_t *B = read_matrix(argv[3]);
    if (A->nrows != A->ncols || B->nrows != A->nrows) die("need A square and B with A's row count", NULL);
    int rep = atoi(argv[4]);
    if (rep < 1) rep = 1;
    double *t = malloc(sizeof(double) * (size_t)rep);
    mzd_t *X = NULL;
    int consistent = 1;
    for (int i = 0; i < rep; i++) {
      mzd_t *Ac = mzd_copy(NULL, A);
      mzd_t *Bc = mzd_copy(NULL, B);
      double t0 = now();
      int ret = mzd_solve_left(Ac, Bc, 0, 1);
      t[i] = now() - t0;
      consistent = ret == 0;
      mzd_free(Ac);
      if (X) mzd_free(X);
      X = Bc;
    }
    printf("consistent %d\n", consistent);
    write_matrix(argv[5], X);
    report_times(t, rep);
    mzd_free(X);
    mzd_free(A);
    mzd_free(B);
    free(t);
    return 0;
  }
  die("unknown command", argv[1]);
  return 2;
}
