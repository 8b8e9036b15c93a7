// lightchase_bench: a plain light-chasing solver for the k x k GF(2) cross board, in C++,
// as the standalone Lights Out solvers found online write it: the first row of taps is
// unknown, every later row is forced by the row above (chased with the unknowns carried
// as bit-vectors), the last row's k equations in k unknowns are solved by Gaussian
// elimination on bitsets, and the taps are replayed numerically. The bench runner's
// "chase-cpp" peer (bench/workloads/scaling.py) compiles it on first use:
//     c++ -O2 -march=native -o lightchase_bench bench/lightchase_bench.cpp
//
// Usage:
//     lightchase_bench S.bin REPEAT X.bin
//         S.bin: the k x k start state as an MLBM file (see bench/m4ri_bench.c);
//         solves s + A x = 0 REPEAT times, writes the taps x (k x k) to X.bin and prints
//         "times t1 t2 ...", "median S" and "free F" (the dimension of the kernel).
//         Exit 1 when the board has no solution. Only the solve is timed (not the I/O).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using u64 = std::uint64_t;

static void die(const char *msg, const char *arg) {
  std::fprintf(stderr, "lightchase_bench: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  std::exit(2);
}

struct Affine {  // one tap as (symbol bit-vector over the first row, constant)
  std::vector<u64> bits;
  u64 c = 0;
};

// Solves s + A x = 0 for the k x k cross; returns false when unsolvable.
static bool chase_solve(int k, const std::vector<std::uint8_t> &s, std::vector<std::uint8_t> &x,
                        int &free_dims) {
  const int W = (k + 63) / 64;
  // rows of taps as affine forms: prev (r - 1), cur (r), next (r + 1)
  std::vector<u64> prev((size_t)k * W, 0), cur((size_t)k * W, 0), next((size_t)k * W, 0);
  std::vector<std::uint8_t> prevc(k, 0), curc(k, 0), nextc(k, 0);
  for (int c = 0; c < k; c++) cur[(size_t)c * W + c / 64] |= (u64)1 << (c % 64);
  for (int r = 0; r < k; r++) {
    // next[c] = s[r][c] + prev[c] + cur[c-1] + cur[c] + cur[c+1] (tile (r, c) cleared)
    for (int c = 0; c < k; c++) {
      u64 *o = &next[(size_t)c * W];
      const u64 *p = &prev[(size_t)c * W], *m = &cur[(size_t)c * W];
      std::uint8_t cc = s[(size_t)r * k + c] ^ prevc[c] ^ curc[c];
      for (int w = 0; w < W; w++) o[w] = p[w] ^ m[w];
      if (c > 0) {
        const u64 *l = &cur[(size_t)(c - 1) * W];
        for (int w = 0; w < W; w++) o[w] ^= l[w];
        cc ^= curc[c - 1];
      }
      if (c + 1 < k) {
        const u64 *rr = &cur[(size_t)(c + 1) * W];
        for (int w = 0; w < W; w++) o[w] ^= rr[w];
        cc ^= curc[c + 1];
      }
      nextc[c] = cc;
    }
    std::swap(prev, cur);
    std::swap(cur, next);
    std::swap(prevc, curc);
    std::swap(curc, nextc);
  }
  // cur now holds the would-be row k: it must vanish. k equations: bits . z = c
  std::vector<u64> eq((size_t)k * (W + 1), 0);
  const int W1 = W + 1;
  for (int c = 0; c < k; c++) {
    std::memcpy(&eq[(size_t)c * W1], &cur[(size_t)c * W], W * sizeof(u64));
    eq[(size_t)c * W1 + W] = curc[c];
  }
  std::vector<int> pivcol;
  int row = 0;
  for (int col = 0; col < k && row < k; col++) {
    int w = col / 64;
    u64 bit = (u64)1 << (col % 64);
    int p = row;
    while (p < k && !(eq[(size_t)p * W1 + w] & bit)) p++;
    if (p == k) continue;
    if (p != row)
      for (int j = 0; j < W1; j++) std::swap(eq[(size_t)p * W1 + j], eq[(size_t)row * W1 + j]);
    for (int i = 0; i < k; i++)
      if (i != row && (eq[(size_t)i * W1 + w] & bit))
        for (int j = w; j < W1; j++) eq[(size_t)i * W1 + j] ^= eq[(size_t)row * W1 + j];
    pivcol.push_back(col);
    row++;
  }
  for (int i = row; i < k; i++)
    if (eq[(size_t)i * W1 + W] & 1) return false;
  free_dims = k - row;
  std::vector<std::uint8_t> z(k, 0);
  for (int i = 0; i < row; i++) z[pivcol[i]] = (std::uint8_t)(eq[(size_t)i * W1 + W] & 1);
  // numeric replay
  x.assign((size_t)k * k, 0);
  for (int c = 0; c < k; c++) x[c] = z[c];
  for (int r = 0; r + 1 < k; r++)
    for (int c = 0; c < k; c++) {
      std::uint8_t v = s[(size_t)r * k + c] ^ x[(size_t)r * k + c];
      if (r > 0) v ^= x[(size_t)(r - 1) * k + c];
      if (c > 0) v ^= x[(size_t)r * k + c - 1];
      if (c + 1 < k) v ^= x[(size_t)r * k + c + 1];
      x[(size_t)(r + 1) * k + c] = v;
    }
  return true;
}

int main(int argc, char **argv) {
  if (argc != 4) die("usage: lightchase_bench S.bin REPEAT X.bin", nullptr);
  FILE *f = std::fopen(argv[1], "rb");
  if (!f) die("cannot open", argv[1]);
  char magic[4];
  std::uint32_t hdr[3];
  if (std::fread(magic, 1, 4, f) != 4 || std::memcmp(magic, "MLBM", 4) != 0)
    die("bad magic in", argv[1]);
  if (std::fread(hdr, 4, 3, f) != 3) die("short header in", argv[1]);
  if (hdr[0] != hdr[1] || hdr[0] == 0) die("the state must be k x k", argv[1]);
  const int k = (int)hdr[0];
  std::vector<std::uint8_t> s((size_t)k * k);
  if (std::fread(s.data(), 1, s.size(), f) != s.size()) die("short data in", argv[1]);
  std::fclose(f);
  for (auto &v : s) v &= 1;
  int repeat = std::atoi(argv[2]);
  if (repeat < 1) die("REPEAT must be >= 1", argv[2]);
  std::vector<double> times;
  std::vector<std::uint8_t> x;
  int free_dims = 0;
  for (int i = 0; i < repeat; i++) {
    auto t0 = std::chrono::steady_clock::now();
    bool ok = chase_solve(k, s, x, free_dims);
    auto t1 = std::chrono::steady_clock::now();
    if (!ok) {
      std::printf("unsolvable\n");
      return 1;
    }
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  FILE *o = std::fopen(argv[3], "wb");
  if (!o) die("cannot write", argv[3]);
  std::uint32_t oh[3] = {(std::uint32_t)k, (std::uint32_t)k, 0};
  std::fwrite("MLBM", 1, 4, o);
  std::fwrite(oh, 4, 3, o);
  std::fwrite(x.data(), 1, x.size(), o);
  std::fclose(o);
  std::printf("times");
  for (double t : times) std::printf(" %.9f", t);
  std::printf("\n");
  std::sort(times.begin(), times.end());
  std::printf("median %.9f\nfree %d\n", times[times.size() / 2], free_dims);
  return 0;
}
