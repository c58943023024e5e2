; ModuleID = 'reduced.ll'
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @f2(i8 %0) {
  br label %2

2:                                                ; preds = %2, %1
  %3 = phi <8 x i32> [ zeroinitializer, %1 ], [ %10, %2 ]
  %4 = bitcast i8 %0 to <8 x i1>
  %5 = tail call <8 x i1> asm "korb $($1, $0, $0$|$0, $0, $1$)", "=k,k,0,~{dirflag},~{fpsr},~{flags}"(<8 x i1> %4, <8 x i1> zeroinitializer)
  %6 = bitcast i8 1 to <8 x i1>
  %7 = and <8 x i1> %6, %5
  %8 = select <8 x i1> %6, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x i1> %4
  %9 = select <8 x i1> %7, <8 x i1> %8, <8 x i1> zeroinitializer
  %10 = select <8 x i1> %9, <8 x i32> %3, <8 x i32> zeroinitializer
  %11 = select <8 x i1> zeroinitializer, <8 x i32> %3, <8 x i32> zeroinitializer
  br label %2
}
