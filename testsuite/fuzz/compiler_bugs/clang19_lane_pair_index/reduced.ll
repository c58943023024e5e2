; llc-19 -O2 -mattr=+avx2 reduced.ll -o -
; lane 0 of %o (sign-extended, times 4: the ashr) and lane 1 (the lshr) as
; indices.  llc-19 emits `vmovq %xmm0, %rcx; movl (%rdi,%rcx,4), %eax`: the
; whole 64 bits, lane 1 included, as lane 0's index.  After instruction
; selection (-print-after=finalize-isel) lane 0's index is
;   %7:gr32 = COPY %6.sub_32bit   (%6 = VMOVPQIto64rr)
;   %8:gr64_nosp = SUBREG_TO_REG 0, killed %7, %subreg.sub_32bit
; which claims zero upper bits that no instruction clears (lane 1's index
; gets its MOV32rr).
define i32 @f(ptr %p, i32 %k) {
  %a = and i32 %k, 254
  %v = insertelement <4 x i32> poison, i32 %a, i64 0
  %s = shufflevector <4 x i32> %v, <4 x i32> poison, <4 x i32> zeroinitializer
  %o = or disjoint <4 x i32> %s, <i32 0, i32 1, i32 0, i32 0>
  %b = bitcast <4 x i32> %o to <2 x i64>
  %e = extractelement <2 x i64> %b, i64 0
  %sh = shl i64 %e, 32
  %as = ashr exact i64 %sh, 30
  %g = getelementptr inbounds i8, ptr %p, i64 %as
  %l = load i32, ptr %g, align 4
  %hi = lshr i64 %e, 32
  %g2 = getelementptr inbounds i32, ptr %p, i64 %hi
  %l2 = load i32, ptr %g2, align 4
  %r = add i32 %l, %l2
  ret i32 %r
}
