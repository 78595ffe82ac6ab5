/* Startup for the STM32F4 reference board: vector table, reset (data/bss, FPU), fault handler that
   turns the motor off, and the few instructions Swift cannot spell (WFI, interrupt masking).
   Everything else is Embedded Swift in ../Sources and the shared MotorWire/BoardCore sources. */
#include <stddef.h>
#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
extern void motorbreath_main(void);
extern void SysTick_Handler(void);
extern void USART1_IRQHandler(void);

/* A fault must never leave the motor running: zero both TIM1 compare registers and cut the timer's
   main output (MOE), then stop. (A watchdog reset would also do; QEMU does not model the IWDG.) */
void Fault_Handler(void) {
    *(volatile uint32_t *)0x40010034u = 0; /* TIM1 CCR1 */
    *(volatile uint32_t *)0x40010038u = 0; /* TIM1 CCR2 */
    *(volatile uint32_t *)0x40010044u = 0; /* TIM1 BDTR: MOE off */
    for (;;) __asm volatile("wfi");
}

void Reset_Handler(void) {
    /* The Swift code uses the VFPv4 softfp ABI: grant CP10/CP11 before anything runs. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm volatile("dsb\n isb");
    uint32_t *src = &_sidata, *dst = &_sdata;
    while (dst < &_edata) *dst++ = *src++;
    for (dst = &_sbss; dst < &_ebss;) *dst++ = 0;
    motorbreath_main();
    Fault_Handler();
}

void mb_irq_disable(void) { __asm volatile("cpsid i" ::: "memory"); }
void mb_irq_enable(void) { __asm volatile("cpsie i" ::: "memory"); }
void mb_wfi(void) { __asm volatile("dsb\n wfi" ::: "memory"); }

/* The memory helpers the Swift runtime and compiler-generated code call (no C library is linked). */
void *memcpy(void *d, const void *s, size_t n) {
    uint8_t *dp = d;
    const uint8_t *sp = s;
    while (n--) *dp++ = *sp++;
    return d;
}
void *memmove(void *d, const void *s, size_t n) {
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if (dp < sp) { while (n--) *dp++ = *sp++; }
    else { dp += n; sp += n; while (n--) *--dp = *--sp; }
    return d;
}
void *memset(void *d, int c, size_t n) {
    uint8_t *dp = d;
    while (n--) *dp++ = (uint8_t)c;
    return d;
}
void __aeabi_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memmove(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove4(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove8(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memset(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset4(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset8(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memclr(void *d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr4(void *d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr8(void *d, size_t n) { memset(d, 0, n); }

/* Cortex-M4 vector table: 16 system entries, then the STM32F4's 82 interrupts (USART1 is IRQ 37). */
#define IRQS 82
__attribute__((section(".isr_vector"), used))
void (*const vectors[16 + IRQS])(void) = {
    (void (*)(void))&_estack,
    Reset_Handler,
    Fault_Handler, /* NMI */
    Fault_Handler, /* HardFault */
    Fault_Handler, /* MemManage */
    Fault_Handler, /* BusFault */
    Fault_Handler, /* UsageFault */
    0, 0, 0, 0,
    Fault_Handler, /* SVCall */
    Fault_Handler, /* DebugMon */
    0,
    Fault_Handler, /* PendSV */
    SysTick_Handler,
    [16 + 37] = USART1_IRQHandler,
};
