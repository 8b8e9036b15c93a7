/* registry_costs.h: the cost constants of the library's own engines, the one place they
 * live (registry_own.c computes every engine's cost from them; Python's
 * modlights.engines.registry reads PER_TILE, CROSSOVER_TILES and DENSE_PER_ENTRY from
 * here through _core; the JavaScript build compiles registry_own.c).
 *
 * A structured engine or the chase costs SETUP + per_tile * tiles seconds; the dense
 * engines DENSE_PER_ENTRY * entries of the tap matrix (tiles^2 on grids). The constants
 * that decide are the crossovers: the tiles from which an engine beats the chase on the
 * boards it covers ("chase": where the chase beats the dense engines); SETUP is placed so
 * each line meets the chase's there (less ML__COST_TIE, so the newer engine wins the
 * tie). per_tile orders two structured engines that cover one board: the lower slope wins
 * on large boards. `python -m bench engine-costs` (bench/workloads/engine_costs.py)
 * measures both: the crossovers against the chase on each engine's boards (--param
 * write=PATH rewrites them here), and on boards two engines cover which is faster, beside
 * the order these slopes give (its "order" figures). The slopes are that order, not
 * seconds: tensor (fastest on the 1-D patterns, which algebraic-cross, -torus and lifted
 * also cover) < algebraic-torus < algebraic-cross < the rest; algebraic-sym-odd just
 * above algebraic-sym (a tie measured on the odd x even boards both cover; sym answers
 * more questions, packed solves among them). lifted's crossover is measured on Z/6 (a field
 * part per prime: its row "lifted" costs it on squarefree n); "lifted-zq" is its line on
 * an n with a factor p^k, k > 1 (parts over Z/p^k: the algebra over Z/p^k when singular
 * mod p, digit by digit or the torus algebra when not), measured against the chase on the
 * cross, the diagonal and the tori over Z/4, 8, 9, 16, 25, 27, 12.
 *
 * ML__LIFTED_TORUS_RATIO_2 and _ODD decide lifted's parts over Z/p^k (k > 1) of a torus
 * that are invertible mod p (engines/lifted.c): the torus algebra over Z/p^k (span + 1
 * chases over Z/p^k to build, two a solve; span: the rows of its torus2 orientation) when
 * span + 3 <= RATIO k, else digit by digit (k solves over GF(p) and k - 1 stencil
 * products); RATIO is a digit step's time over a chase's (p = 2, odd p), measured by
 * engine-costs on invertible tori with both strategies forced (MODLIGHTS_LIFTED_PARTS).
 * ML__LIFTED_ZQ_RHO_CROSS and _SYM decide lifted's parts over Z/p^k singular mod p of
 * the cross family and of the symmetric 3 x 3 patterns without wrap (lifted_cross.c,
 * lifted_odd.c): the algebra over Z/p^k when the rank m of its singular part R_A
 * (lifted_alg.h: a Smith form of O(m^3)) is at most RHO w (w the row length; and at most
 * 512), else the chase over Z/p^k (a dense residual of about w unknowns, 2 w for the
 * symmetric patterns); measured by engine-costs on singular boards with both forced.
 * Library-internal. */
#ifndef ML_API_REGISTRY_COSTS_H
#define ML_API_REGISTRY_COSTS_H

#define ML__DENSE_PER_ENTRY 3.0e-10
#define ML__COST_TIE 1e-12

typedef struct {
    const char *name;   /* the engine's registry name */
    double per_tile;    /* seconds a tile: the slope of its cost line */
    long crossover;     /* tiles from which it beats the chase (the chase: the dense engines) */
} ml__engine_cost_row;

/* BEGIN COSTS (written by bench engine-costs) */
#define ML__LIFTED_TORUS_RATIO_2 5.000
#define ML__LIFTED_TORUS_RATIO_ODD 3.000
#define ML__LIFTED_ZQ_RHO_CROSS 0.332
#define ML__LIFTED_ZQ_RHO_SYM 1.125
static const ml__engine_cost_row ML__ENGINE_COSTS[] = {
    {"chase", 1.0e-8, 144},
    {"algebraic-cross", 0.8e-8, 36},
    {"algebraic-torus", 0.75e-8, 256},
    {"algebraic-torus2", 0.995e-8, 2304},
    {"algebraic-sym", 0.995e-8, 256},
    {"algebraic-sym-odd", 0.996e-8, 361},
    {"lifted", 0.995e-8, 64},
    {"lifted-zq", 0.995e-8, 529},
    {"tensor", 0.7e-8, 64},
};
/* END COSTS */
#define ML__N_ENGINE_COSTS ((int)(sizeof ML__ENGINE_COSTS / sizeof ML__ENGINE_COSTS[0]))

#endif
