// SPDX-License-Identifier: Apache-2.0
/* Startup for the STM32F4 reference board: vector table, reset (our stack and vectors, what a
   bootloader's jump left running stopped, motor pins low, FPU, data/bss), fault handler that turns the
   motor off, and the few instructions Swift cannot spell (WFI, DSB, interrupt masking).
   Everything else is Embedded Swift in ../Sources and the shared MotorWire/BoardCore sources. */
#include <stddef.h>
#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
extern void motorbreath_main(void);
extern void SysTick_Handler(void);
extern void USART1_IRQHandler(void);
void Reset_Handler(void);
void Fault_Handler(void);
void reset_c(void);

#define REG(address) (*(volatile uint32_t *)(address))
#define SCB_VTOR REG(0xE000ED08u)
#define SCB_CPACR REG(0xE000ED88u)
#define RCC_AHB1ENR REG(0x40023830u)
#define GPIOA_MODER REG(0x40020000u)
#define GPIOA_BSRR REG(0x40020018u)
#define GPIOB_MODER REG(0x40020400u)
#define GPIOB_BSRR REG(0x40020418u)
#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)
#define SCB_ICSR REG(0xE000ED04u)
#define NVIC_ICER(n) REG(0xE000E180u + 4u * (n))
#define NVIC_ICPR(n) REG(0xE000E280u + 4u * (n))
#define FLASH_ACR REG(0x40023C00u)

/* PA8 (MOSFET gate / bridge IN1) and PB14 (bridge IN2) as outputs driven low, their GPIO clocks on.
   Inlined: the fault handler must not depend on a call through a stack that may be what faulted. */
static inline __attribute__((always_inline)) void motor_pins_low(void) {
    RCC_AHB1ENR |= 0x3u; /* GPIOA, GPIOB clocks */
    (void)RCC_AHB1ENR;
    __asm volatile("dsb" ::: "memory");
    GPIOA_BSRR = 1u << (8 + 16);
    GPIOA_MODER = (GPIOA_MODER & ~(3u << 16)) | (1u << 16);
    GPIOB_BSRR = 1u << (14 + 16);
    GPIOB_MODER = (GPIOB_MODER & ~(3u << 28)) | (1u << 28);
}

/* Cortex-M4 vector table: 16 system entries, then the STM32F411's 86 interrupts (the F401 has 85, QEMU's
   F405 82; the table is sized for the largest). Every entry the firmware does not handle goes to the
   fault handler, so a stray interrupt turns the motor off instead of jumping to 0. */
#define IRQS 86
#define IRQ_USART1 37

/* A fault must never leave the motor running, with or without the gate pull-down: the motor pins
   (PA8, PB14) are taken from TIM1 and driven low as GPIO outputs, as the reset code does (a CCR write
   alone lands in the preload register and waits for an update; MOE off alone lets the pins float).
   TIM1's compare registers and MOE are cleared too. Then the watchdog is started: if main had started
   it (Sources/Watchdog.swift) this changes nothing and it resets the chip within about 250 ms; if the
   fault came before that (clock setup, MotorDrive.start, the brown-out write), this starts it with
   its reset values (/4, 4095: about 0.5 s at the LSI's 32 kHz, 0.35-1 s over its range). Either way a
   reset follows, and the reset path holds the motor off. QEMU does not model the IWDG: there the board
   stays in this loop, motor pins low. */
void Fault_Handler(void) {
    __asm volatile("cpsid i" ::: "memory");
    motor_pins_low(); /* their clocks are on already unless the fault came first thing */
    *(volatile uint32_t *)0x40010034u = 0; /* TIM1 CCR1 */
    *(volatile uint32_t *)0x40010038u = 0; /* TIM1 CCR2 */
    *(volatile uint32_t *)0x40010044u = 0; /* TIM1 BDTR: MOE off */
    *(volatile uint32_t *)0x40003000u = 0xCCCCu; /* IWDG_KR: start */
    for (;;) __asm volatile("wfi");
}

extern void (*const vectors[16 + IRQS])(void);

/* Entered by a reset, or by a bootloader's jump (DFU `:leave`, `stm32flash -g`: AN3156, AN3155), which
   leaves its own state behind: interrupts maybe unmasked with its NVIC lines and SysTick live, the
   stack pointer where it was, the process stack selected. Mask interrupts, take the stack from our
   vector table and the main stack in privileged thread mode, then go on in C. */
__attribute__((naked)) void Reset_Handler(void) {
    __asm volatile(
        "cpsid i\n"
        "ldr r0, =_estack\n"
        "msr msp, r0\n"
        "movs r0, #0\n"
        "msr control, r0\n"
        "msr basepri, r0\n"
        "isb\n"
        "b reset_c\n");
}

void reset_c(void) {
    /* 1. Our own vector table, whatever is mapped at address 0: after a bootloader jump
       (stm32flash -g 0x08000000 with BOOT0 still high) the system ROM stays there (AN2606, AN3155),
       and its vectors would take SysTick and USART1. */
    SCB_VTOR = (uint32_t)vectors;
    __asm volatile("dsb\n isb" ::: "memory");
    /* 2. Motor off before anything else runs: PA8 (MOSFET gate / bridge IN1) and PB14 (bridge IN2)
       driven low. After a reset they float as inputs, and the gate pull-down holds the motor off;
       this makes it active until MotorDrive.start hands the pins to TIM1 with zero duty. */
    motor_pins_low();
    /* 3. What a bootloader left running: SysTick stopped, every NVIC line disabled and its pending bit
       cleared, SysTick and PendSV not pending (after a reset all of this is so already). The flash
       caches are reset while off (a bootloader that rewrote the flash may have left lines of the old
       contents), keeping the wait states the clock needs now; Clocks.swift sets them for its clock. */
    SYST_CSR = 0;
    SYST_RVR = 0;
    SYST_CVR = 0;
    for (uint32_t n = 0; n < 8; n++) {
        NVIC_ICER(n) = 0xFFFFFFFFu;
        NVIC_ICPR(n) = 0xFFFFFFFFu;
    }
    SCB_ICSR = (1u << 25) | (1u << 27); /* PENDSTCLR, PENDSVCLR */
    uint32_t acr = FLASH_ACR & 0xFu;    /* LATENCY only: prefetch and caches off */
    FLASH_ACR = acr;
    FLASH_ACR = acr | (1u << 11) | (1u << 12); /* ICRST, DCRST */
    FLASH_ACR = acr;
    __asm volatile("dsb\n isb" ::: "memory");
    /* 4. The Swift code uses the VFPv4 softfp ABI: grant CP10/CP11 before any of it runs. */
    SCB_CPACR |= 0xFu << 20;
    __asm volatile("dsb\n isb" ::: "memory");
    uint32_t *src = &_sidata, *dst = &_sdata;
    while (dst < &_edata) *dst++ = *src++;
    for (dst = &_sbss; dst < &_ebss;) *dst++ = 0;
    __asm volatile("cpsie i" ::: "memory"); /* as after a reset: the firmware enables its own lines */
    motorbreath_main();
    Fault_Handler();
}

void mb_irq_disable(void) { __asm volatile("cpsid i" ::: "memory"); }
void mb_irq_enable(void) { __asm volatile("cpsie i" ::: "memory"); }
void mb_wfi(void) { __asm volatile("dsb\n wfi" ::: "memory"); }
void mb_dsb(void) { __asm volatile("dsb" ::: "memory"); }

/* The memory helpers the Swift runtime and compiler-generated code call (no C library is linked).
   Swift copies whole structs with them (FixedBytes, BoardCore's ring), so they move words when both
   pointers allow it: four times fewer loads and stores than a byte loop. */
void *memcpy(void *d, const void *s, size_t n) {
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if ((((uintptr_t)dp | (uintptr_t)sp) & 3u) == 0) {
        uint32_t *dw = (uint32_t *)dp;
        const uint32_t *sw = (const uint32_t *)sp;
        for (; n >= 16; n -= 16) { dw[0] = sw[0]; dw[1] = sw[1]; dw[2] = sw[2]; dw[3] = sw[3]; dw += 4; sw += 4; }
        for (; n >= 4; n -= 4) *dw++ = *sw++;
        dp = (uint8_t *)dw;
        sp = (const uint8_t *)sw;
    }
    while (n--) *dp++ = *sp++;
    return d;
}
void *memmove(void *d, const void *s, size_t n) {
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if (dp <= sp || dp >= sp + n) return memcpy(d, s, n);
    dp += n; sp += n; while (n--) *--dp = *--sp;
    return d;
}
void *memset(void *d, int c, size_t n) {
    uint8_t *dp = d;
    if (((uintptr_t)dp & 3u) == 0) {
        uint32_t w = (uint8_t)c * 0x01010101u;
        uint32_t *dw = (uint32_t *)dp;
        for (; n >= 16; n -= 16) { dw[0] = w; dw[1] = w; dw[2] = w; dw[3] = w; dw += 4; }
        for (; n >= 4; n -= 4) *dw++ = w;
        dp = (uint8_t *)dw;
    }
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

/* Every entry filled (the reserved ones too): the fault handler unless the firmware handles it. */
#define F Fault_Handler
#define F8 F, F, F, F, F, F, F, F
__attribute__((section(".isr_vector"), used, aligned(512)))
void (*const vectors[16 + IRQS])(void) = {
    (void (*)(void))&_estack,
    Reset_Handler,
    F8, F, F, F, F, F, /* NMI, HardFault, MemManage, BusFault, UsageFault, reserved x4, SVCall, DebugMon, reserved, PendSV */
    SysTick_Handler,
    /* IRQ 0 ... 85 */
    F8, F8, F8, F8, F8, F8, F8, F8, F8, F8, F, F, F, F, F, F,
    [16 + IRQ_USART1] = USART1_IRQHandler,
};
