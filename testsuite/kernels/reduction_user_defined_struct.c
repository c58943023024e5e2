/* s2s-test: vectorized=4 tolerance=exact candidate_cflags="-fopenmp" */
/* reduction_user_defined_struct: structs reduced with '#pragma omp declare
 * reduction'.  Each lane's private struct starts as the initializer makes
 * it (a compound literal; a call that sets omp_priv through its address;
 * none, so every field 0), the body updates its fields (under divergent
 * branches, a nested struct, fields it never touches keep the initial
 * value), and the lanes' structs are combined with the combiner after the
 * loop.  '+' declared for a struct; one loop under 'parallel for simd',
 * which the OpenMP runtime combines across threads with the same
 * declaration (the candidate is built with -fopenmp).  The values are
 * integers (in double too), so any order of combination gives the scalar
 * loop's result. */
#include "harness.h"

struct range {
    float lo, hi;
};

struct stats {
    int count;
    double sum;
    struct range range;
    long untouched;
};

struct pair {
    long sum;
    unsigned bits;
};

/* the identity of the combiner, set through omp_priv's address: the
 * result must not depend on how many private copies there are */
static void start_pair(struct pair *p)
{
    p->sum = 0;
    p->bits = 0;
}

#pragma omp declare reduction(merge : struct stats :                                        \
        omp_out.count += omp_in.count, omp_out.sum += omp_in.sum,                           \
        omp_out.range.lo = omp_in.range.lo < omp_out.range.lo ? omp_in.range.lo              \
                                                              : omp_out.range.lo,           \
        omp_out.range.hi = omp_in.range.hi > omp_out.range.hi ? omp_in.range.hi              \
                                                              : omp_out.range.hi,           \
        omp_out.untouched += omp_in.untouched)                                              \
    initializer(omp_priv = (struct stats){0, 0.0, {1e30f, -1e30f}, 0})
#pragma omp declare reduction(+ : struct pair : omp_out.sum += omp_in.sum,                  \
                                                omp_out.bits |= omp_in.bits)                \
    initializer(start_pair(&omp_priv))
#pragma omp declare reduction(fold : struct pair : omp_out.sum = omp_out.sum * 3 + omp_in.sum, \
                                                   omp_out.bits ^= omp_in.bits)

void reduce(int n, const float *x, const int *k, struct stats *res_stats,
            struct pair *res_plus, struct pair *res_fold, struct pair *res_par)
{
    struct stats st = {7, 0.5, {1e30f, -1e30f}, 3};
#pragma omp simd reduction(merge : st)
    for (int i = 0; i < n; i++) {
        if (x[i] > 0.0f) {
            st.count++;
            st.sum += x[i];
        }
        if (x[i] < st.range.lo)
            st.range.lo = x[i];
        if (x[i] > st.range.hi)
            st.range.hi = x[i];
    }
    struct pair p = {1, 0x10u};
#pragma omp simd reduction(+ : p)
    for (int i = 0; i < n; i++) {
        p.sum += k[i];
        p.bits |= 1u << (k[i] & 31);
    }
    /* the combiner multiplies the total so far: with every private copy
     * starting at 0 and only bits changing, the sums stay 0 */
    struct pair f = {0, 0};
#pragma omp simd reduction(fold : f)
    for (int i = 0; i < n; i++)
        f.bits ^= (unsigned)k[i];
    struct pair q = {5, 0};
#pragma omp parallel for simd reduction(+ : q)
    for (int i = 0; i < n; i++) {
        if (k[i] > 0)
            q.sum += k[i];
        q.bits |= 1u << (k[i] & 7);
    }
    *res_stats = st;
    *res_plus = p;
    *res_fold = f;
    *res_par = q;
}

int main(int argc, char **argv)
{
    static float x[S2S_CAP];
    static int k[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int i = 0; i < n; i++) {
            x[i] = (float)s2s_int(-500, 500);
            k[i] = (int)s2s_int(-1000, 1000);
        }
        struct stats st;
        struct pair p, f, q;
        reduce(n, x, k, &st, &p, &f, &q);
        s2s_out_i64("count", st.count);
        s2s_out_f64("sum", st.sum);
        s2s_out_f64("lo", st.range.lo);
        s2s_out_f64("hi", st.range.hi);
        s2s_out_i64("untouched", st.untouched);
        s2s_out_i64("plus", p.sum);
        s2s_out_i64("plus_bits", p.bits);
        s2s_out_i64("fold", f.sum);
        s2s_out_i64("fold_bits", f.bits);
        s2s_out_i64("par", q.sum);
        s2s_out_i64("par_bits", q.bits);
    }
    return 0;
}
