/* s2s-test: vectorized=1 tolerance=exact */
/* divergent_switch_continue_break: a divergent switch inside a divergent
 * inner loop (a tiny bytecode interpreter per lane): `break` in an arm
 * leaves only the switch, `continue` in an arm goes to the next trip of
 * the inner loop (skipping the code after the switch), and a halt opcode
 * leaves the loop through a flag.  A continue of the simd loop sits in a
 * switch arm outside the inner loop. */
#include "harness.h"

#define PROG 16

void interp(int n, const uint8_t *code, const int32_t *mode, int32_t *acc_out, int32_t *pc_out)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        switch (mode[i]) {
        case 0:
            continue;           /* no stores for this lane */
        case 1:
            acc_out[i] = -1;
            break;
        default:
            break;
        }
        int32_t acc = 0, pc = 0, steps = 0, halt = 0;
        while (pc < PROG && !halt) {
            uint8_t op = code[i * PROG + pc];
            pc++;
            switch (op & 7) {
            case 0:             /* nop */
                continue;
            case 1:
                acc += op >> 3;
                break;
            case 2:
                acc *= 2;
                break;
            case 3:             /* skip the next op */
                pc++;
                continue;
            case 4:
                halt = 1;
                break;
            default:
                acc -= 1;
            }
            steps++;
        }
        if (mode[i] != 1)
            acc_out[i] = acc;
        pc_out[i] = pc * 100 + steps;
    }
}

int main(int argc, char **argv)
{
    static uint8_t code[S2S_CAP * PROG];
    static int32_t mode[S2S_CAP], acc[S2S_CAP], pc[S2S_CAP];
    (void)argc; (void)argv;
    S2S_FOR_SIZES(n) {
        for (int p = 0; p < S2S_NPATTERNS; p++) {
            s2s_fill_u8(code, n * PROG);
            for (int i = 0; i < n; i++) {
                mode[i] = s2s_pattern(p, i, n) ? 0 : (int32_t)s2s_int(1, 3);
                if (i % 4 == 3)   /* halt early */
                    code[i * PROG + s2s_int(0, 3)] = 4;
            }
            s2s_fill_i32(acc, S2S_CAP, 6, 6);
            s2s_fill_i32(pc, S2S_CAP, 7, 7);
            interp(n, s2s_tail(0, code, (size_t)n * PROG), s2s_tail(1, mode, n * sizeof mode[0]), acc, pc);
            S2S_OUT("acc", acc, n + S2S_GUARD);
            S2S_OUT("pc", pc, n + S2S_GUARD);
        }
    }
    return 0;
}
