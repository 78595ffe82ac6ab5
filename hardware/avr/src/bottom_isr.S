; The Timer1 overflow interrupt, every PWM period start (BOTTOM, 20 kHz): the board clock's overflow count
; and, only when due, the output stage. In C every register the rare output path uses would be saved on
; every one of the 20,000 interrupts a second; this fast path costs about 75 cycles (9 % of the CPU).
;
;   out_bottoms++                                    (main.c: wakes the main loop every 16th period)
;   clock_base_lo/hi += 800                          (clock.c: the 64-bit tick of this BOTTOM)
;   if (int32_t)(clock_base_lo - out_work_at) >= 0:  output_bottom(clock_base_lo)   (output.c)
; SPDX-License-Identifier: Apache-2.0

#include <avr/io.h>

    .section .text.TIMER1_OVF_vect,"ax",@progbits
    .global TIMER1_OVF_vect
TIMER1_OVF_vect:
    push r24
    in   r24, _SFR_IO_ADDR(SREG)
    push r24
    push r25

    ; out_bottoms++: the main loop's cue that time has passed (it sleeps through most periods)
    lds  r24, out_bottoms
    inc  r24
    sts  out_bottoms, r24

    ; clock_base_lo += 800, as clock_base_lo - (2^32 - 800): the borrow is clear exactly when the sum wraps.
    lds  r24, clock_base_lo
    lds  r25, clock_base_lo+1
    subi r24, 0xE0
    sbci r25, 0xFC
    sts  clock_base_lo, r24
    sts  clock_base_lo+1, r25
    lds  r24, clock_base_lo+2
    sbci r24, 0xFF
    sts  clock_base_lo+2, r24
    lds  r24, clock_base_lo+3
    sbci r24, 0xFF
    sts  clock_base_lo+3, r24
    brcs 1f
    ; carry into clock_base_hi (+1, as - 0xFFFFFFFF)
    lds  r24, clock_base_hi
    subi r24, 0xFF
    sts  clock_base_hi, r24
    lds  r24, clock_base_hi+1
    sbci r24, 0xFF
    sts  clock_base_hi+1, r24
    lds  r24, clock_base_hi+2
    sbci r24, 0xFF
    sts  clock_base_hi+2, r24
    lds  r24, clock_base_hi+3
    sbci r24, 0xFF
    sts  clock_base_hi+3, r24
1:
    ; Is output work due? Sign of clock_base_lo - out_work_at.
    lds  r24, clock_base_lo
    lds  r25, out_work_at
    sub  r24, r25
    lds  r24, clock_base_lo+1
    lds  r25, out_work_at+1
    sbc  r24, r25
    lds  r24, clock_base_lo+2
    lds  r25, out_work_at+2
    sbc  r24, r25
    lds  r24, clock_base_lo+3
    lds  r25, out_work_at+3
    sbc  r24, r25
    brpl 2f
    pop  r25
    pop  r24
    out  _SFR_IO_ADDR(SREG), r24
    pop  r24
    reti

2:  ; Save what a C function may clobber (r24/r25 already are), call output_bottom(clock_base_lo).
    push r0
    push r1
    clr  r1
    push r18
    push r19
    push r20
    push r21
    push r22
    push r23
    push r26
    push r27
    push r30
    push r31
    lds  r22, clock_base_lo
    lds  r23, clock_base_lo+1
    lds  r24, clock_base_lo+2
    lds  r25, clock_base_lo+3
    call output_bottom
    pop  r31
    pop  r30
    pop  r27
    pop  r26
    pop  r23
    pop  r22
    pop  r21
    pop  r20
    pop  r19
    pop  r18
    pop  r1
    pop  r0
    pop  r25
    pop  r24
    out  _SFR_IO_ADDR(SREG), r24
    pop  r24
    reti
