/* gf2_vs_m4ri.c: csrc's GF(2) core against M4RI on the same inputs, interleaved,
 * medians of process CPU time (the machine is shared: wall time is noisy).
 * Not part of the build; `python -m bench gf2-c-vs-m4ri` compiles and runs it. Needs libm4ri-dev.
 * MODLIGHTS_SIMD=portable|avx2|avx512 in the environment forces a SIMD path.
 * (a) row echelon form of dense random N x N: mzd_echelonize(A, 0) vs ml_gf2_echelonize
 * (b) k x k cross board, factor + one solve: mzd_solve_left vs ml_gf2_factor + solve_dot
 * (d) dense random N x N, factor + one solve (the same pair) */
#include <m4ri/m4ri.h>
#include "gf2.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double cpu(void){struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t); return t.tv_sec+1e-9*t.tv_nsec;}
static uint64_t s = 88172645463325252ull;
static uint64_t rnd(void){ uint64_t z=(s+=0x9e3779b97f4a7c15ull); z=(z^(z>>30))*0xbf58476d1ce4e5b9ull; z=(z^(z>>27))*0x94d049bb133111ebull; return z^(z>>31); }
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
static double med(double *v,int n){qsort(v,n,sizeof(double),cmp);return v[n/2];}
static ml_gf2_t *cross(int k){ ml_gf2_t *A=ml_gf2_new(k*k,k*k);
 for(int r=0;r<k;r++)for(int c=0;c<k;c++){int j=r*k+c; int d[5][2]={{0,0},{1,0},{-1,0},{0,1},{0,-1}};
  for(int t=0;t<5;t++){int rr=r+d[t][0],cc=c+d[t][1]; if(rr>=0&&rr<k&&cc>=0&&cc<k) ml_gf2_flip(A,rr*k+cc,j);}} return A;}
static mzd_t *to_m4ri(const ml_gf2_t *A){ mzd_t *M=mzd_init(A->nrows,A->ncols); for(size_t i=0;i<A->nrows;i++)for(size_t j=0;j<A->ncols;j++) if(ml_gf2_get(A,i,j)) mzd_write_bit(M,i,j,1); return M;}
int main(){
  int Ns[]={1024,4096,8192};
  for(int q=0;q<3;q++){ int N=Ns[q], reps=N<8192?9:5; double tm[9],tl[9]; size_t r1=0,r2=0;
    ml_gf2_t *A=ml_gf2_new(N,N); for(int i=0;i<N;i++)for(size_t w=0;w<A->width;w++) ml_gf2_row(A,i)[w]=rnd(); mzd_t *M=to_m4ri(A);
    for(int rep=0;rep<reps;rep++){ mzd_t *C=mzd_copy(NULL,M); double t0=cpu(); r1=mzd_echelonize(C,0); tm[rep]=cpu()-t0; mzd_free(C);
      ml_gf2_t *D=ml_gf2_copy(A); t0=cpu(); r2=ml_gf2_echelonize(D,0,N,NULL); tl[rep]=cpu()-t0; ml_gf2_free(D);}
    double a=med(tm,reps),b=med(tl,reps); printf("(a) dense %d echelon: M4RI %.1f ms, modlights %.1f ms, ratio %.2f (ranks %zu %zu)\n",N,a*1e3,b*1e3,b/a,(size_t)r1,r2);
    ml_gf2_free(A); mzd_free(M);}
  int ks[]={32,64,90};
  for(int q=0;q<3;q++){ int k=ks[q], n=k*k, reps=9; double tm[9],tl[9];
    ml_gf2_t *A=cross(k); mzd_t *M=to_m4ri(A); ml_gf2_t *B=ml_gf2_new(1,n); for(int j=0;j<n;j++) if(rnd()&1) ml_gf2_flip(B,0,j);
    mzd_t *Bm=mzd_init(n,1); for(int j=0;j<n;j++) mzd_write_bit(Bm,j,0,ml_gf2_get(B,0,j));
    for(int rep=0;rep<reps;rep++){ mzd_t *C=mzd_copy(NULL,M), *X=mzd_copy(NULL,Bm); double t0=cpu(); mzd_solve_left(C,X,0,0); tm[rep]=cpu()-t0; mzd_free(C); mzd_free(X);
      t0=cpu(); ml_gf2_fact_t *F=ml_gf2_factor(A); ml_gf2_t *Y=ml_gf2_solve_dot(F,B); tl[rep]=cpu()-t0; ml_gf2_free(Y); ml_gf2_fact_free(F);}
    double a=med(tm,reps),b=med(tl,reps); printf("(b) cross %dx%d factor+solve: M4RI mzd_solve_left %.1f ms, modlights %.1f ms, ratio %.2f\n",k,k,a*1e3,b*1e3,b/a);
    ml_gf2_free(A); mzd_free(M); ml_gf2_free(B); mzd_free(Bm);}
  for(int N=1024;N<=4096;N*=4){ int reps=5; double tm[9],tl[9];
    ml_gf2_t *A=ml_gf2_new(N,N); for(int i=0;i<N;i++)for(size_t w=0;w<A->width;w++) ml_gf2_row(A,i)[w]=rnd(); mzd_t *M=to_m4ri(A);
    ml_gf2_t *B=ml_gf2_new(1,N); for(int j=0;j<N;j++) if(rnd()&1) ml_gf2_flip(B,0,j);
    mzd_t *Bm=mzd_init(N,1); for(int j=0;j<N;j++) mzd_write_bit(Bm,j,0,ml_gf2_get(B,0,j));
    for(int rep=0;rep<reps;rep++){ mzd_t *C=mzd_copy(NULL,M), *X=mzd_copy(NULL,Bm); double t0=cpu(); mzd_solve_left(C,X,0,0); tm[rep]=cpu()-t0; mzd_free(C); mzd_free(X);
      t0=cpu(); ml_gf2_fact_t *F=ml_gf2_factor(A); ml_gf2_t *Y=ml_gf2_solve_dot(F,B); tl[rep]=cpu()-t0; ml_gf2_free(Y); ml_gf2_fact_free(F);}
    double a=med(tm,reps),b=med(tl,reps); printf("(d) dense %d factor+solve: M4RI mzd_solve_left %.1f ms, modlights %.1f ms, ratio %.2f\n",N,a*1e3,b*1e3,b/a);
    ml_gf2_free(A); mzd_free(M); ml_gf2_free(B); mzd_free(Bm);}
}
